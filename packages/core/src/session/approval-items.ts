// Approval questions are part of the items clients see: a command or patch that waits on the
// client is shown from the moment it is asked about, and a declined command completes as declined.
import type { CoreEvent } from '../turn/core-event.js';
import type { TurnItems } from '../turn/turn-items.js';
import type { ClientRequests } from './client-requests.js';

/** `client`, telling `items` about every approval question and its answer. */
export function withApprovalItems(client: ClientRequests, items: TurnItems, emit: (events: readonly CoreEvent[]) => void): ClientRequests {
  return {
    async requestCommandApproval(request, signal) {
      emit(items.commandAwaitingApproval(request));
      const decision = await client.requestCommandApproval(request, signal);
      emit(items.commandAnswered(request, decision === 'decline' || decision === 'cancel'));
      return decision;
    },
    async requestFileChangeApproval(request, signal) {
      emit(items.patchAwaitingApproval(request));
      const decision = await client.requestFileChangeApproval(request, signal);
      items.patchAnswered(request, decision === 'decline' || decision === 'cancel');
      return decision;
    },
    requestUserInput: (request, signal) => client.requestUserInput(request, signal),
    ...(client.requestMcpElicitation === undefined ? {} : { requestMcpElicitation: client.requestMcpElicitation.bind(client) }),
  };
}
