// What agents say to each other, as the models are trained to read it: an `agent_message` input item
// (`amsg_` id, author and recipient paths) whose first text part is the envelope header. A task or a
// message travels as `encrypted_content` after an empty payload (the model provider decrypts it); a
// final answer travels in the clear, after the header.
import { withResponseItemMetadata, type ResponseItem } from '@skein/protocol';

/** The kinds of envelope: a task for an agent, a message while it works, its final answer. */
export type EnvelopeType = 'NEW_TASK' | 'MESSAGE' | 'FINAL_ANSWER';

/** One envelope: who sends what to whom. */
export interface Envelope {
  readonly type: EnvelopeType;
  /** The sender's path (`/root`, `/root/worker`). */
  readonly author: string;
  /** The recipient's path; the header's `Task name`. */
  readonly recipient: string;
  readonly payload: string;
  /** The tool call that sent it (`spawn_agent`, `send_message`, `followup_task`), kept as the item's `source_call_id`. */
  readonly sourceCallId?: string | undefined;
}

/** The `agent_message` item the recipient's model receives for `envelope`. */
export function envelopeItem(envelope: Envelope, id: string): ResponseItem {
  const header = `Message Type: ${envelope.type}\nTask name: ${envelope.recipient}\nSender: ${envelope.author}\nPayload:\n`;
  const content =
    envelope.type === 'FINAL_ANSWER'
      ? [{ type: 'input_text', text: `${header}${envelope.payload}` }]
      : [
          { type: 'input_text', text: header },
          { type: 'encrypted_content', encrypted_content: envelope.payload },
        ];
  const item: ResponseItem = { type: 'agent_message', id, author: envelope.author, recipient: envelope.recipient, content };
  return envelope.sourceCallId === undefined ? item : withResponseItemMetadata(item, { source_call_id: envelope.sourceCallId });
}
