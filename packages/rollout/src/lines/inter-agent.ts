// The inter-agent line types: a message between agents of one thread tree, which the recipient's
// model sees as an `agent_message` item, and the delivery marker that opens a turn for it.
import type { ResponseItem } from '@skein/protocol';
import { lazySchema } from '@skein/protocol';
import * as z from 'zod';

/** A message from one agent to another (`inter_agent_communication`). */
export const InterAgentCommunication = lazySchema(() => z.looseObject({
  id: z.string().nullish(),
  author: z.string(),
  recipient: z.string(),
  other_recipients: z.array(z.string()).optional(),
  content: z.string(),
  encrypted_content: z.string().nullish(),
  /** Whether the message starts a turn for its recipient. */
  trigger_turn: z.boolean(),
}));
export type InterAgentCommunication = z.infer<typeof InterAgentCommunication>;

/** Marks that the next item was delivered as an inter-agent message (`inter_agent_communication_metadata`). */
export const InterAgentCommunicationMetadata = lazySchema(() => z.looseObject({ trigger_turn: z.boolean() }));
export type InterAgentCommunicationMetadata = z.infer<typeof InterAgentCommunicationMetadata>;

/**
 * The history item the recipient's model sees for a communication: an `agent_message` with the
 * plain text, or, for an encrypted one, a header naming the message kind, task and sender
 * followed by the encrypted payload (Codex's layout, so a resumed Codex thread reads the same).
 */
export function interAgentHistoryItem(communication: InterAgentCommunication): ResponseItem {
  const content = communication.encrypted_content
    ? [
        {
          type: 'input_text',
          text: `Message Type: ${communication.trigger_turn ? 'NEW_TASK' : 'MESSAGE'}\nTask name: ${communication.recipient}\nSender: ${communication.author}\nPayload:\n`,
        },
        { type: 'encrypted_content', encrypted_content: communication.encrypted_content },
      ]
    : [{ type: 'input_text', text: communication.content }];
  const passthrough = communication['internal_chat_message_metadata_passthrough'];
  return {
    type: 'agent_message',
    ...(communication.id ? { id: communication.id } : {}),
    author: communication.author,
    recipient: communication.recipient,
    content,
    ...(passthrough === undefined ? {} : { internal_chat_message_metadata_passthrough: passthrough }),
  };
}
