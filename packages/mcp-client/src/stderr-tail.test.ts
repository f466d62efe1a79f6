import { expect, it } from 'vitest';
import { StderrTail } from './stderr-tail.js';

it('keeps only the last bytes of what a server wrote', () => {
  const tail = new StderrTail(10);
  tail.append('first line\n');
  tail.append(Buffer.from('and the end\n'));
  expect(tail.text()).toBe('d the end');
});

it('is empty when nothing was written', () => {
  expect(new StderrTail().text()).toBe('');
});
