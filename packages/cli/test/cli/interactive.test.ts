/**
 * Input requests answered at a terminal, through `runCli` with injected streams that say they
 * are a TTY: elicitation forms field by field (defaults, enums by number, titled options,
 * multi-select), declining, and the answers file for scripts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io';
import { runCli } from '../../src/main';
import { everythingStdio, freshCache } from '../e2e/support';

const CURSOR_CODES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/** A TTY-like io whose stdin answers each prompt (a line ending in ": ") with the next answer. */
function terminal(answers: string[]) {
  const stdout = Object.assign(new PassThrough(), { isTTY: false });
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let out = '';
  let err = '';
  const asked: string[] = [];
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    const prompt = /([^\n]*): $/.exec(err.slice(-300));
    if (prompt && err.endsWith(': ')) {
      // The prompt line as a person sees it, without readline's cursor codes.
      asked.push((prompt[1] as string).replace(CURSOR_CODES, ''));
      stdin.write(`${answers.shift() ?? ''}\n`);
    }
  });
  const io: CliIo = {
    stdout,
    stderr,
    stdin,
    env: { TWOFOLD_CACHE_DIR: freshCache(), NO_COLOR: '1', PATH: process.env.PATH },
    cwd: process.cwd(),
    interrupt: new AbortController().signal,
  };
  return { io, asked, output: () => ({ out, err }) };
}

const server = () => ['--era', 'legacy', '--', ...everythingStdio()];

describe('answering at the terminal', { timeout: 30_000 }, () => {
  it('fills a form field by field; empty answers take the defaults', async () => {
    const t = terminal(['y', '', '41', '', '3', 'no']);
    const code = await runCli(
      ['tools', 'call', 'test_elicitation_sep1034_defaults', ...server()],
      t.io,
    );
    expect(code).toBe(0);
    expect(t.asked).toEqual([
      'Answer it? [Y/d/c] (yes, decline, cancel)',
      '  name — User name [John Doe]',
      '  age — User age [30]',
      '  score — User score [95.5]',
      '  status — User status (1=active, 2=inactive, 3=pending) [active]',
      '  verified — Verification status [true]',
    ]);
    const { out } = t.output();
    expect(out).toContain('"name":"John Doe"');
    expect(out).toContain('"age":41');
    expect(out).toContain('"score":95.5');
    expect(out).toContain('"status":"pending"');
    expect(out).toContain('"verified":false');
  });

  it('enums by number or value, titled options, multi-select; a bad answer is asked again', async () => {
    const t = terminal(['', '2', '3', 'opt1', 'option1, 3', 'nine', '1,2']);
    const code = await runCli(
      ['tools', 'call', 'test_elicitation_sep1330_enums', ...server()],
      t.io,
    );
    expect(code).toBe(0);
    expect(t.asked[2]).toBe(
      '  titledSingle — Select one option with titles (1=First Option [value1], 2=Second Option [value2], 3=Third Option [value3])',
    );
    const { out, err } = t.output();
    expect(out).toContain('"untitledSingle":"option2"');
    expect(out).toContain('"titledSingle":"value3"');
    expect(out).toContain('"legacyEnum":"opt1"');
    expect(out).toContain('"untitledMulti":["option1","option3"]');
    expect(err).toContain('"nine" is not one of value1, value2, value3');
    expect(out).toContain('"titledMulti":["value1","value2"]');
  });

  it('a declined form reaches the server as a decline', async () => {
    const t = terminal(['d']);
    const code = await runCli(
      ['tools', 'call', 'test_elicitation_sep1034_defaults', ...server()],
      t.io,
    );
    expect(code).toBe(0);
    expect(t.output().out).toContain('decline');
  });

  it('--answers answers without a terminal, in order', async () => {
    const file = join(freshCache(), 'answers.json');
    await writeFile(file, JSON.stringify({ elicitation: { response: 'from the file' } }));
    const t = terminal([]);
    const code = await runCli(
      ['tools', 'call', 'test_elicitation', 'message=hi', '--answers', file, ...server()],
      t.io,
    );
    expect(code).toBe(0);
    expect(t.asked).toEqual([]);
    expect(t.output().out).toContain('User response: action=accept');
    expect(t.output().out).toContain('from the file');
  });
});
