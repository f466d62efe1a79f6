// Why a review cannot start: the directory is not a repository, git fails, the branch or commit is
// unknown, or there is nothing to review. Hosts show the message as is (the app-server answers
// -32600 with it; `exec review` prints it and exits 1).

export type ReviewErrorCode = 'NotARepository' | 'GitFailed' | 'UnknownTarget' | 'NothingToReview';

export class ReviewError extends Error {
  override readonly name = 'ReviewError';
  constructor(
    readonly code: ReviewErrorCode,
    message: string,
  ) {
    super(message);
  }
}
