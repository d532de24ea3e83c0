/** Allow and deny lists with `*` globs: exact names, globs, deny winning, empty lists. */
import { describe, expect, it } from 'vitest';
import { filterVerdict, matchesFilter, matchesGlob } from '../../src/names/filter';

describe('matchesGlob', () => {
  it.each([
    ['search', 'search', true],
    ['search', 'search_issues', false],
    ['search', 'Search', false],
    ['*', 'anything', true],
    ['*', '', true],
    ['search_*', 'search_issues', true],
    ['search_*', 'search_', true],
    ['search_*', 'research_issues', false],
    ['*_issue', 'create_issue', true],
    ['*_issue', 'create_issues', false],
    ['get_*_by_id', 'get_user_by_id', true],
    ['get_*_by_id', 'get_by_id', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'acb', false],
    ['*\n*', 'line\nbreak', true],
  ])('%j matches %j: %s', (pattern, name, expected) => {
    expect(matchesGlob(pattern, name)).toBe(expected);
  });

  it.each([
    ['fs.read*', 'fs.read_file', true],
    ['fs.read*', 'fsXread_file', false],
    ['a+b*', 'a+b', true],
    ['a+b*', 'aab', false],
    ['(x)*', '(x)y', true],
    ['[ab]*', 'a', false],
    ['[ab]*', '[ab]c', true],
    ['^x$*', '^x$', true],
    ['a?*', 'ab', false],
    ['a\\b*', 'a\\b', true],
    ['{1}*', '{1}', true],
    ['a|b*', 'b', false],
  ])('treats regex characters in %j literally (%j: %s)', (pattern, name, expected) => {
    expect(matchesGlob(pattern, name)).toBe(expected);
  });
});

describe('matchesFilter and filterVerdict', () => {
  it.each([
    ['no filter', undefined, 'anything', undefined],
    ['empty filter', {}, 'anything', undefined],
    ['allowed by name', { allow: ['search'] }, 'search', undefined],
    ['allowed by glob', { allow: ['search_*'] }, 'search_code', undefined],
    ['not allowed', { allow: ['search_*'] }, 'delete_repo', 'not in the allow list'],
    ['empty allow list', { allow: [] }, 'search', 'not in the allow list'],
    ['denied by name', { deny: ['delete_repo'] }, 'delete_repo', 'denied by "delete_repo"'],
    ['denied by glob', { deny: ['delete_*'] }, 'delete_repo', 'denied by "delete_*"'],
    ['not denied', { deny: ['delete_*'] }, 'create_repo', undefined],
    ['deny wins', { allow: ['*'], deny: ['delete_*'] }, 'delete_repo', 'denied by "delete_*"'],
    ['first deny named', { deny: ['x', 'del*', 'delete_*'] }, 'delete_repo', 'denied by "del*"'],
    ['allowed, not denied', { allow: ['*'], deny: ['delete_*'] }, 'create', undefined],
  ] as const)('%s', (_label, filter, tool, verdict) => {
    expect(filterVerdict(tool, filter)).toBe(verdict);
    expect(matchesFilter(tool, filter)).toBe(verdict === undefined);
  });
});
