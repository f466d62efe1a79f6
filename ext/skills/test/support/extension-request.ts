// What a host hands the skills extension for one turn of a thread, with fresh in-memory stores: the
// request its context, turn-input and tool contributors read in these tests.
import { MemoryExtensionData, type DurableExtensionData } from '@skein/extension-api';

export function extensionRequest(options: { readonly threadId: string; readonly cwd: string; readonly prompt: string }) {
  return {
    threadId: options.threadId,
    turnId: 'turn',
    cwd: options.cwd,
    init: { selectedCapabilityRoots: [] },
    environments: [],
    warn: () => undefined,
    session: new MemoryExtensionData(),
    thread: new MemoryExtensionData() as DurableExtensionData,
    turn: new MemoryExtensionData(),
    input: [{ type: 'text' as const, text: options.prompt, text_elements: [] }],
  };
}
