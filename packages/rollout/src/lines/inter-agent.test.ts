import { describe, expect, it } from 'vitest';
import { InterAgentCommunication, interAgentHistoryItem } from './inter-agent.js';

describe('interAgentHistoryItem', () => {
  it('gives the recipient an agent_message with the plain text', () => {
    const communication = InterAgentCommunication.parse({ author: '/root', recipient: '/root/worker', content: 'do it', trigger_turn: true, id: 'mail_1' });
    expect(interAgentHistoryItem(communication)).toEqual({
      type: 'agent_message',
      id: 'mail_1',
      author: '/root',
      recipient: '/root/worker',
      content: [{ type: 'input_text', text: 'do it' }],
    });
  });

  it('puts a header before an encrypted payload', () => {
    const communication = InterAgentCommunication.parse({ author: '/root/worker', recipient: '/root', content: '', encrypted_content: 'cipher', trigger_turn: false });
    const item = interAgentHistoryItem(communication) as { content: { type: string; text?: string }[] };
    expect(item.content[0]?.text).toContain('Message Type: MESSAGE');
    expect(item.content[1]).toEqual({ type: 'encrypted_content', encrypted_content: 'cipher' });
  });
});
