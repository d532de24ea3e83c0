import { describe, expect, it } from 'vitest';
import { type TemplateVariables, UriTemplate } from '../src/registry/uri-template';

const cases: [template: string, uri: string, expected: TemplateVariables | undefined][] = [
  // Level 1: simple strings, one path segment, percent-decoded.
  ['test://template/{id}/data', 'test://template/123/data', { id: '123' }],
  ['test://template/{id}/data', 'test://template//data', undefined],
  ['test://template/{id}/data', 'test://template/a/b/data', undefined],
  ['users://{name}', 'users://J%C3%BCrgen%20K', { name: 'Jürgen K' }],
  ['users://{name}', 'users://bad%E0%A4', undefined],
  ['file:///{name}.txt', 'file:///notes.v2.txt', { name: 'notes.v2' }],
  ['x://{a},{b}', 'x://1,2', { a: '1', b: '2' }],
  ['x://{a,b}', 'x://1,2', { a: '1', b: '2' }],
  ['x://{a,b}', 'x://1', { a: '1' }],
  ['x://{a,b}', 'x://1,2,3', undefined],
  ['x://{list}', 'x://red,green', { list: 'red,green' }],
  ['x://{list*}', 'x://red,green', { list: ['red', 'green'] }],
  // Level 2: reserved and fragment expansion may span reserved characters.
  ['file:///{+path}', 'file:///a/b/c.txt', { path: 'a/b/c.txt' }],
  ['file:///{+path}/meta', 'file:///a/b/meta', { path: 'a/b' }],
  ['file:///{+path}', 'file:///', undefined],
  ['doc://page{#section}', 'doc://page#intro/part', { section: 'intro/part' }],
  ['doc://page{#section}', 'doc://page', {}],
  // Level 3: label, path segments, path-style and query parameters.
  ['host://www{.domain}', 'host://www.example', { domain: 'example' }],
  ['host://www{.a,b}', 'host://www.x.y', { a: 'x', b: 'y' }],
  ['host://www{.parts*}', 'host://www.a.b.c', { parts: ['a', 'b', 'c'] }],
  ['repo://r{/owner,name}', 'repo://r/acme/tool', { owner: 'acme', name: 'tool' }],
  ['repo://r{/segments*}', 'repo://r/a/b/c', { segments: ['a', 'b', 'c'] }],
  ['repo://r{/owner}', 'repo://r', {}],
  ['repo://r{/owner}', 'repo://r/a/b', undefined],
  ['map://m{;x,y}', 'map://m;x=1;y=2', { x: '1', y: '2' }],
  ['map://m{;x,y}', 'map://m;y=2;x', { x: '', y: '2' }],
  ['search://s{?q,lang}', 'search://s?q=cat%20food&lang=en', { q: 'cat food', lang: 'en' }],
  ['search://s{?q,lang}', 'search://s?lang=en', { lang: 'en' }],
  ['search://s{?q,lang}', 'search://s', {}],
  ['search://s{?q}{&page}', 'search://s?q=x&page=2&other=1', { q: 'x', page: '2' }],
  ['search://s?fixed=1{&page}', 'search://s?fixed=1&page=3', { page: '3' }],
  ['search://s{?tag*}', 'search://s?tag=a&tag=b', { tag: ['a', 'b'] }],
  // Level 4 prefix: at most N characters.
  ['x://{id:3}/rest', 'x://abc/rest', { id: 'abc' }],
  ['x://{id:3}/rest', 'x://abcd/rest', undefined],
  // Literal parts match exactly, regex characters included.
  ['x://a.b/{id}', 'x://aXb/1', undefined],
  ['x://(v)/{id}', 'x://(v)/1', { id: '1' }],
];

describe('UriTemplate.match', () => {
  it.each(cases)('%s matching %s', (template, uri, expected) => {
    expect(new UriTemplate(template).match(uri)).toEqual(expected);
  });
});

describe('UriTemplate parsing', () => {
  it.each([
    ['x://{id', 'unbalanced'],
    ['x://id}', 'unbalanced'],
    ['x://{=id}', 'reserved'],
    ['x://{a b}', 'invalid variable'],
    ['x://{a:0}', 'invalid variable'],
    ['x://{}', 'unbalanced'],
  ])('rejects %s', (template, message) => {
    expect(() => new UriTemplate(template)).toThrow(message);
  });

  it('reports variable names and literal length', () => {
    const template = new UriTemplate('test://{a}/x{?b,c}');
    expect(template.variableNames).toEqual(['a', 'b', 'c']);
    expect(template.literalLength).toBe('test:///x'.length);
  });
});
