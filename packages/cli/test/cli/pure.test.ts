/** The CLI's pure pieces as tables: command-line splitting, argument coercion, exit codes. */
import { LocalError, LocalErrorCode, ProtocolError } from '@twofold/protocol/experimental';
import { McpConfigError } from '@twofold/registry-adapter/experimental';
import { describe, expect, it } from 'vitest';
import { keyValues } from '../../src/cli/arguments';
import type { CommandContext } from '../../src/cli/command';
import { splitCommandLine } from '../../src/cli/command-line';
import { CliError, EXIT, exitCodeFor } from '../../src/cli/exit-codes';
import { parseCommandLine } from '../../src/cli/parse';
import { resolveTarget } from '../../src/cli/target';
import { COMMANDS } from '../../src/commands/table';

describe('splitCommandLine', () => {
  it.each([
    ['npx -y server', ['npx', '-y', 'server']],
    ['  node   a.js  ', ['node', 'a.js']],
    [`node "my server.js" --name 'a b'`, ['node', 'my server.js', '--name', 'a b']],
    [String.raw`node a\ b.js`, ['node', 'a b.js']],
    [String.raw`echo "say \"hi\""`, ['echo', 'say "hi"']],
    [`echo '$HOME' "$HOME" ; rm -rf x`, ['echo', '$HOME', '$HOME', ';', 'rm', '-rf', 'x']],
    [`node ""`, ['node', '']],
  ])('%s', (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  it.each([['node "unterminated'], ['   ']])('refuses %j', (line) => {
    expect(() => splitCommandLine(line)).toThrow(CliError);
  });
});

describe('key=value arguments, coerced by the input schema', () => {
  const schema = {
    type: 'object',
    properties: {
      n: { type: 'integer' },
      x: { type: 'number' },
      on: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'string' } },
      opts: { type: 'object' },
      text: { type: 'string' },
      either: { anyOf: [{ type: 'number' }, { type: 'string' }] },
    },
  };
  it('coerces by type and keeps strings as written', () => {
    const words = [
      'n=3',
      'x=2.5',
      'on=false',
      'tags=["a","b"]',
      'opts={"k":1}',
      'text=007',
      'either=1',
      'extra=[1]',
      'a=b=c',
    ];
    expect(keyValues(words, schema)).toEqual({
      n: 3,
      x: 2.5,
      on: false,
      tags: ['a', 'b'],
      opts: { k: 1 },
      text: '007',
      either: 1,
      extra: [1],
      a: 'b=c',
    });
  });

  it.each([
    ['n=three', 'argument n must be a number'],
    ['on=maybe', 'argument on must be true or false'],
    ['tags=a,b', 'argument tags must be JSON'],
    ['novalue', 'arguments are key=value'],
  ])('refuses %s', (word, message) => {
    expect(() => keyValues([word], schema)).toThrow(message);
  });
});

describe('exit codes', () => {
  it.each<[string, unknown, number]>([
    ['a tool error is not an exception', new CliError(EXIT.toolError, 'x'), 1],
    ['a timeout', new LocalError(LocalErrorCode.RequestTimeout, 't'), 75],
    ['unauthorized', new LocalError(LocalErrorCode.Unauthorized, 'u'), 77],
    [
      'HTTP 401',
      new LocalError(LocalErrorCode.Unauthorized, 'u', { details: { status: 401 } }),
      77,
    ],
    [
      'HTTP 403 asking for scope',
      new LocalError(LocalErrorCode.Unauthorized, 'u', {
        details: { status: 403, wwwAuthenticate: 'Bearer error="insufficient_scope", scope="a"' },
      }),
      77,
    ],
    [
      'HTTP 403 from a Host check (a refusal)',
      new LocalError(LocalErrorCode.Unauthorized, 'u', {
        details: { status: 403, bodySnippet: 'Access is only allowed at localhost:3111' },
      }),
      69,
    ],
    ['a process that exited', new LocalError(LocalErrorCode.ProcessExited, 'p'), 69],
    ['HTTP 503', new LocalError(LocalErrorCode.HttpError, 'h', { details: { status: 503 } }), 69],
    ['HTTP 400', new LocalError(LocalErrorCode.HttpError, 'h', { details: { status: 400 } }), 76],
    ['a network failure', new LocalError(LocalErrorCode.HttpError, 'h'), 69],
    ['no mutual version', new LocalError(LocalErrorCode.NoMutualVersion, 'v'), 76],
    ['invalid params from the server', new ProtocolError(-32602, 'bad'), 65],
    ['another protocol error', new ProtocolError(-32603, 'internal'), 76],
    ['a config error', new McpConfigError([{ path: '', message: 'm' }]), 78],
    ['refused connection', Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }), 69],
    ['a bug', new TypeError('oops'), 70],
  ])('%s', (_what, error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });
});

describe('parseCommandLine', () => {
  it('finds the command anywhere among the options and keeps what follows --', async () => {
    const line = await parseCommandLine(
      ['--json', 'tools', '--timeout', '5', 'call', 'echo', 'm=1', '--', 'node', '--flag'],
      COMMANDS,
    );
    expect(line).toMatchObject({
      kind: 'run',
      command: { path: ['tools', 'call'] },
      words: ['echo', 'm=1'],
      values: { json: true, timeout: '5' },
      rest: ['node', '--flag'],
    });
  });

  it('help and version', async () => {
    expect(await parseCommandLine([], COMMANDS)).toEqual({ kind: 'help', topic: [] });
    expect(await parseCommandLine(['help', 'tools', 'call'], COMMANDS)).toEqual({
      kind: 'help',
      topic: ['tools', 'call'],
    });
    expect(await parseCommandLine(['tools', 'call', '--help'], COMMANDS)).toEqual({
      kind: 'help',
      topic: ['tools', 'call'],
    });
    expect(await parseCommandLine(['--version'], COMMANDS)).toEqual({ kind: 'version' });
  });

  it('an option of another command is unknown here', async () => {
    await expect(
      parseCommandLine(['discover', '--listen', 'x', '--url', 'http://h'], COMMANDS),
    ).rejects.toThrow('unknown option --listen for "twofold discover"');
  });
});

describe('an HTTP target waits for a silent response as long as --timeout allows', () => {
  async function silenceMs(argv: string[]): Promise<number | undefined> {
    const line = await parseCommandLine(
      ['discover', '--url', 'http://127.0.0.1:9/mcp', ...argv],
      COMMANDS,
    );
    if (line.kind !== 'run') throw new Error(`not a command: ${line.kind}`);
    const resolved = await resolveTarget(line as unknown as CommandContext);
    return resolved.http?.requestTimeoutMs;
  }

  it('a --timeout longer than the transport default lengthens it, a shorter one does not', async () => {
    expect(await silenceMs(['--timeout', '120000'])).toBe(120_000);
    expect(await silenceMs(['--timeout', '5000'])).toBe(60_000);
    expect(await silenceMs([])).toBe(60_000);
  });
});
