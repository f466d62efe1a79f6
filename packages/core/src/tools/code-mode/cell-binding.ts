// Which call a cell's nested tool calls run under. A cell starts bound to its `exec` call; a yielded
// cell may run on after that call's turn ended (as in Codex), but its calls must not run under a
// finished turn's settings and sandbox, nor while no turn runs at all: such a call waits until a
// `wait` in a running turn picks the cell up, and then runs under that call.
import type { ToolContext } from '@skein/extension-api';

export class CellBinding {
  #context: ToolContext;
  readonly #activeTurnId: () => string | undefined;
  #held: (() => void)[] = [];

  constructor(context: ToolContext, activeTurnId: () => string | undefined) {
    this.#context = context;
    this.#activeTurnId = activeTurnId;
  }

  /** The call a nested call runs under: the bound one while its turn runs, else the next one bound. */
  async context(): Promise<ToolContext> {
    while (this.#activeTurnId() !== this.#context.turnId) await new Promise<void>((resolve) => this.#held.push(resolve));
    return this.#context;
  }

  /** Binds the cell to `context` (a `wait` on it) and lets held calls go on under it. */
  rebind(context: ToolContext): void {
    this.#context = context;
    for (const release of this.#held.splice(0)) release();
  }
}
