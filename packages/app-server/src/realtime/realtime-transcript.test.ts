import { describe, expect, it } from 'vitest';
import { RealtimeTranscript } from './realtime-transcript.js';

const transcript = () => {
  let id = 0;
  return new RealtimeTranscript(() => `seg-${++id}`, () => 1000);
};

describe('RealtimeTranscript', () => {
  it('keeps one open segment per speaker, closes it at done with what streamed, and keeps the final text for the handoff', () => {
    const t = transcript();
    expect(t.delta('assistant', 'Hi ').opened?.id).toBe('seg-1');
    expect(t.delta('user', 'run ').opened?.id).toBe('seg-2');
    expect(t.delta('assistant', 'there').opened).toBeUndefined();
    const done = t.done('assistant', 'Hi there!');
    expect(done.closed).toMatchObject({ id: 'seg-1', text: 'Hi there' });
    expect(t.closeAll().map((segment) => [segment.id, segment.text])).toEqual([['seg-2', 'run ']]);
    expect(t.takeForHandoff('run the tests')).toEqual([
      { role: 'assistant', text: 'Hi there!' },
      { role: 'user', text: 'run ' },
      { role: 'user', text: 'run the tests' },
    ]);
    expect(t.takeForHandoff('again')).toEqual([{ role: 'user', text: 'again' }]);
  });

  it('opens, fills and closes a segment for an utterance that arrives whole, and does not repeat the request the user just said', () => {
    const t = transcript();
    const change = t.done('user', 'list the files');
    expect(change.opened?.id).toBe('seg-1');
    expect(change.grew?.delta).toBe('list the files');
    expect(change.closed?.text).toBe('list the files');
    expect(t.takeForHandoff('list the files')).toEqual([{ role: 'user', text: 'list the files' }]);
  });

  it('keeps two utterances of one speaker apart, and completes a transcription that finishes after the reply began', () => {
    const t = transcript();
    t.delta('user', 'first');
    t.done('user', 'First.');
    t.delta('user', 'sec');
    t.delta('assistant', 'Sure');
    t.done('user', 'Second.');
    t.done('assistant', 'Sure thing.');
    expect(t.takeForHandoff('')).toEqual([
      { role: 'user', text: 'First.' },
      { role: 'user', text: 'Second.' },
      { role: 'assistant', text: 'Sure thing.' },
    ]);
  });
});
