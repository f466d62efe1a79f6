// Fragment definitions at the boundary: rendering, recognition, and marker collisions.
import { describe, expect, it } from 'vitest';
import { AGENTS_MD_FRAGMENT, BUILT_IN_CONTEXT_FRAGMENTS, ENVIRONMENT_CONTEXT_FRAGMENT } from './built-in-context-fragments.js';
import { contextFragmentMarkersCollide, defineContextFragment, recognizeContextFragment } from './context-fragment.js';

const TODO_LIST = defineContextFragment({ kind: 'todo.list', role: 'user', open: '<todo_list>', close: '</todo_list>' });

describe('defineContextFragment', () => {
  it('renders the body between the markers, a newline on each side by default', () => {
    expect(TODO_LIST.render('- [ ] ship it')).toEqual({ kind: 'todo.list', role: 'user', text: '<todo_list>\n- [ ] ship it\n</todo_list>' });
  });

  it('renders with the separator a definition names (the AGENTS.md wrapper has none)', () => {
    expect(AGENTS_MD_FRAGMENT.render(' for /w\n\n<INSTRUCTIONS>\nrules\n').text).toBe('# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\nrules\n</INSTRUCTIONS>');
    expect(AGENTS_MD_FRAGMENT.matches('# AGENTS.md instructions\n\n<INSTRUCTIONS>\nfor `local` with root /w\n\nx\n</INSTRUCTIONS>')).toBe(true);
  });

  it('recognises its own rendering, ignoring outer whitespace and ASCII case, and nothing that lacks a marker', () => {
    expect(TODO_LIST.matches(TODO_LIST.render('x').text)).toBe(true);
    expect(TODO_LIST.matches('  <TODO_LIST>x</TODO_LIST>\n')).toBe(true);
    expect(TODO_LIST.matches('<todo_list> but the user kept typing')).toBe(false);
    expect(TODO_LIST.matches('please read </todo_list>')).toBe(false);
    expect(AGENTS_MD_FRAGMENT.matches('# agents.md instructions for /w\n\n<INSTRUCTIONS>x</INSTRUCTIONS>')).toBe(true);
  });

  it('refuses a spec without markers or with a kind that is not <area>.<name>', () => {
    expect(() => defineContextFragment({ kind: 'todo.list', role: 'user', open: ' ', close: '</x>' })).toThrow(/open marker/);
    expect(() => defineContextFragment({ kind: 'todo', role: 'user', open: '<x>', close: '</x>' })).toThrow(/<area>\.<name>/);
  });
});

describe('recognizeContextFragment', () => {
  it('finds the definition of a text among those of the same role', () => {
    const text = ENVIRONMENT_CONTEXT_FRAGMENT.render('  <cwd>/w</cwd>').text;
    expect(recognizeContextFragment(text, 'user', BUILT_IN_CONTEXT_FRAGMENTS)).toBe(ENVIRONMENT_CONTEXT_FRAGMENT);
    expect(recognizeContextFragment(text, 'developer', BUILT_IN_CONTEXT_FRAGMENTS)).toBeUndefined();
    expect(recognizeContextFragment(TODO_LIST.render('x').text, 'user', BUILT_IN_CONTEXT_FRAGMENTS)).toBeUndefined();
  });
});

describe('contextFragmentMarkersCollide', () => {
  it('counts equal markers and markers one of which opens the other as colliding', () => {
    expect(contextFragmentMarkersCollide('<skill>', '<SKILL>')).toBe(true);
    expect(contextFragmentMarkersCollide('# AGENTS.md instructions for ', '# agents.md instructions for extensions')).toBe(true);
    expect(contextFragmentMarkersCollide('<skill>', '<skills_instructions>')).toBe(false);
  });

  it('finds no collision among the built-ins', () => {
    for (const [index, a] of BUILT_IN_CONTEXT_FRAGMENTS.entries()) {
      for (const b of BUILT_IN_CONTEXT_FRAGMENTS.slice(index + 1)) expect(contextFragmentMarkersCollide(a.open, b.open), `${a.open} / ${b.open}`).toBe(false);
    }
  });
});
