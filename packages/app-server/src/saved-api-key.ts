// The API key this server's home has saved (`$CODEX_HOME/auth.json`), kept in memory so each model
// request reads the current one: `account/login/start {type: "apiKey"}` and `account/logout`
// change it for every loaded thread at once, as a Codex sign-in does.
import { readSavedApiKey, removeSavedAuth, saveApiKey } from '@skein/config';

/** The saved API key of one home directory. */
export class SavedApiKey {
  #key: string | undefined;

  private constructor(
    private readonly home: string,
    key: string | undefined,
  ) {
    this.#key = key;
  }

  /** Reads `home`'s auth.json; a damaged one is reported through `warn` and counts as none. */
  static async load(home: string, warn: (message: string) => void = () => undefined): Promise<SavedApiKey> {
    try {
      return new SavedApiKey(home, await readSavedApiKey(home));
    } catch (error) {
      warn((error as Error).message);
      return new SavedApiKey(home, undefined);
    }
  }

  /** A home with no key loaded (servers built without a file, in tests). */
  static none(home: string): SavedApiKey {
    return new SavedApiKey(home, undefined);
  }

  /** The key now, if any. */
  get(): string | undefined {
    return this.#key;
  }

  /** Saves `key` (written before it is used: a failed write changes nothing). */
  async save(key: string): Promise<void> {
    await saveApiKey(this.home, key);
    this.#key = key.trim();
  }

  /** Forgets the key, file and all; false when there was none. */
  async remove(): Promise<boolean> {
    const removed = await removeSavedAuth(this.home);
    this.#key = undefined;
    return removed;
  }
}
