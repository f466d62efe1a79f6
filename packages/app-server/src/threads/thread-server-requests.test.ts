import { describe, expect, it } from 'vitest';
import { ServerRequestError } from '../app-server-error.js';
import { ThreadServerRequests, type ServerRequestRecipient } from './thread-server-requests.js';

/** A client that records what it was sent; `gone` ones refuse. */
function recipient(gone = false): ServerRequestRecipient & { readonly sent: { id: number; method: string }[] } {
  const sent: { id: number; method: string }[] = [];
  return { sent, sendRequest: (id, method) => (gone ? false : (sent.push({ id, method }), true)) };
}

function requests(): ThreadServerRequests {
  let next = 0;
  return new ThreadServerRequests(() => next++);
}

describe('ThreadServerRequests', () => {
  it('takes an answer only from a client it was sent to, once', async () => {
    const table = requests();
    const [a, b, stranger] = [recipient(), recipient(), recipient()];
    const asked = table.ask('t1', 'item/tool/requestUserInput', {}, [a, b]);
    expect(a.sent).toEqual([{ id: 0, method: 'item/tool/requestUserInput' }]);
    expect(table.answer(stranger, 0, { result: 'no' })).toBe(false);
    expect(table.answer(b, 0, { result: 'yes' })).toBe(true);
    expect(table.answer(a, 0, { result: 'late' })).toBe(false);
    expect(await asked).toBe('yes');
  });

  it('keeps a request whose client left, and replays it to the next client of its thread only', async () => {
    const table = requests();
    const [left, other, next] = [recipient(), recipient(), recipient()];
    const asked = table.ask('t1', 'approve', { x: 1 }, [left]);
    void table.ask('t2', 'approve', {}, [other]).catch(() => undefined);
    table.forget(left);
    expect(table.answer(left, 0, { result: 'gone' })).toBe(false);
    table.replay('t1', next);
    table.replay('t1', next);
    expect(next.sent).toEqual([{ id: 0, method: 'approve' }]);
    expect(table.pendingIds('t1')).toEqual([0]);
    table.answer(next, 0, { result: 'ok' });
    expect(await asked).toBe('ok');
    expect(table.pendingIds('t1')).toEqual([]);
  });

  it('rejects when no client could be sent the request, on an error answer, and when withdrawn', async () => {
    const table = requests();
    await expect(table.ask('t1', 'approve', {}, [recipient(true)])).rejects.toMatchObject({ code: 'ConnectionClosed' });
    const client = recipient();
    const failing = table.ask('t1', 'approve', {}, [client]);
    table.answer(client, client.sent[0]!.id, { error: new ServerRequestError('ClientError', 'nope') });
    await expect(failing).rejects.toMatchObject({ code: 'ClientError' });
    const controller = new AbortController();
    const withdrawn = table.ask('t1', 'approve', {}, [client], { signal: controller.signal });
    controller.abort();
    await expect(withdrawn).rejects.toMatchObject({ code: 'Withdrawn' });
    expect(table.pendingIds('t1')).toEqual([]);
  });
});
