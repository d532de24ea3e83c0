/** "Did you mean": edit distance, the closest candidate, and other clients' field names. */
import { describe, expect, it } from 'vitest';
import { closest, editDistance, fieldHint } from '../../src/config/suggest';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['abc', 'abc', 0],
    ['kitten', 'sitting', 3],
    ['comand', 'command', 1],
    ['arsg', 'args', 1],
    ['ab', 'ba', 1],
    ['flaw', 'lawn', 2],
  ])('%j -> %j is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('closest', () => {
  const fields = ['command', 'args', 'env', 'envAllow', 'cwd', 'enabled', 'restart'];

  it.each([
    ['comand', 'command'],
    ['COMMAND', 'command'],
    ['arsg', 'args'],
    ['envallow', 'envAllow'],
    ['restrat', 'restart'],
    ['enabeld', 'enabled'],
  ])('%j -> %j', (word, expected) => {
    expect(closest(word, fields)).toBe(expected);
  });

  it.each(['flavour', 'x', 'commandline', 'environment_vars'])(
    'has nothing close to %j',
    (word) => {
      expect(closest(word, fields)).toBeUndefined();
    },
  );

  it('allows more edits for longer words, at most 3', () => {
    // Length 6: up to 2 edits; length 12: up to 3 edits; length 2: 1 edit.
    expect(closest('cmomnd', ['command'])).toBe('command');
    expect(closest('connectTimeout', ['connectTimeoutMs'])).toBe('connectTimeoutMs');
    expect(closest('ab', ['abc'])).toBe('abc');
    expect(closest('ab', ['abcd'])).toBeUndefined();
  });

  it('prefers the nearest candidate, then the first listed', () => {
    // "rest" is 2 edits away and listed first; "restart" is 1 edit away.
    expect(closest('restar', ['rest', 'restart'])).toBe('restart');
    // A tie goes to the first listed.
    expect(closest('envs', ['env', 'envs2'])).toBe('env');
    expect(closest('abcx', ['abcy', 'abcz'])).toBe('abcy');
  });
});

describe('fieldHint', () => {
  it.each([
    ['disabled', ' (use "enabled": false)'],
    ['timeout', ' (did you mean "connectTimeoutMs"?)'],
    ['transport', ' (did you mean "type"?)'],
    ['transportType', ' (did you mean "type"?)'],
    ['environment', ' (did you mean "env"?)'],
    ['servers', ' (VS Code\'s name for "mcpServers"; a file has one of them, not both)'],
    ['comand', ' (did you mean "command"?)'],
    ['flavour', ''],
    ['constructor', ''],
  ])('%j', (field, hint) => {
    expect(fieldHint(field, ['command', 'type', 'env'])).toBe(hint);
  });
});
