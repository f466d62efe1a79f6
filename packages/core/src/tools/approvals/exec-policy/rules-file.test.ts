import { describe, expect, it } from 'vitest';
import { parseRulesFile, RulesFileError } from './rules-file.js';

describe('parseRulesFile', () => {
  it('reads prefix rules with alternatives, comments, trailing commas and defaults, and sets other calls aside', () => {
    const rules = parseRulesFile(
      [
        '# git reads are fine',
        "prefix_rule(pattern = ['git', ['status', 'log']], match = ['git status -s', ['git', 'log']], not_match = ['git push'],)",
        'network_rule(host="example.com", protocol="https", decision="allow")',
        'prefix_rule(',
        '    pattern=["rm", "-rf"],',
        '    decision="forbidden",',
        '    justification="use trash instead",',
        ')',
      ].join('\n'),
      'user.rules',
    );
    expect(rules).toEqual([
      { pattern: ['git', ['status', 'log']], decision: 'allow', justification: undefined, origin: 'user.rules:2' },
      { pattern: ['rm', '-rf'], decision: 'forbidden', justification: 'use trash instead', origin: 'user.rules:4' },
    ]);
  });

  it('reads the Starlark users write: names, +, triple-quoted and raw strings, escapes', () => {
    const rules = parseRulesFile(
      [
        "SHELLS = ['bash', 'sh']",
        'FLAGS = ["-c"] + ["-lc"]',
        'prefix_rule(',
        '    pattern = [SHELLS, FLAGS],',
        '    decision = "prompt",',
        '    justification = """scripts run',
        'anything""",',
        `    match = ['bash -lc "echo $HOME"', "sh -c 'a # b'"],`,
        ')',
        'prefix_rule(pattern=[r"C:\\tools\\x", "\\x1b\\u00e9\\101" + "!"])',
      ].join('\n'),
      'user.rules',
    );
    expect(rules).toEqual([
      { pattern: [['bash', 'sh'], ['-c', '-lc']], decision: 'prompt', justification: 'scripts run\nanything', origin: 'user.rules:3' },
      { pattern: ['C:\\tools\\x', '\x1b\u00e9A!'], decision: 'allow', justification: undefined, origin: 'user.rules:10' },
    ]);
  });

  it.each([
    ['prefix_rule(pattern=[])', 'x.rules:1: prefix_rule `pattern`: pattern must name at least one word'],
    ['prefix_rule(pattern=["ls"], decision="maybe")', 'x.rules:1: prefix_rule `decision`'],
    ['prefix_rule(pattern=["ls"], colour="red")', 'x.rules:1: prefix_rule arguments'],
    ['\nprefix_rule(pattern=["ls"], match=["cat x"])', 'x.rules:2: the match example "cat x" does not match the pattern'],
    ['prefix_rule(pattern=["ls"], not_match=["ls -l"])', 'x.rules:1: the not_match example "ls -l" matches the pattern'],
    ['allow_all()', 'x.rules:1: unknown function `allow_all`'],
    ['prefix_rule(pattern=["ls"]', 'x.rules:1: expected `,` or `)`, found the end of the file'],
    ['prefix_rule(pattern=["ls)', 'x.rules:1: unterminated string'],
    ['prefix_rule(pattern=["ls"], pattern=["cat"])', 'x.rules:1: argument `pattern` is given twice'],
    ['prefix_rule(pattern=ls)', 'x.rules:1: `ls` is not defined'],
    ['A = ["x"] + "y"', 'x.rules:1: `+` joins two strings or two lists'],
    ['prefix_rule(pattern=["a\\q"])', 'x.rules:1: unknown escape \\q'],
  ])('refuses %j, naming the place', (text, message) => {
    expect(() => parseRulesFile(text, 'x.rules')).toThrow(RulesFileError);
    expect(() => parseRulesFile(text, 'x.rules')).toThrow(message);
  });
});
