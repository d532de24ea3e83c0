/**
 * The target as a report may show it: no header or environment values, no URL credentials or
 * query values, and no values of arguments that look like secrets.
 */
import type { DoctorTarget } from './types';

const HIDDEN = '***';
// Argument names that usually carry a secret (`--api-key=…`, `--token …`).
const SECRET_NAME = /(key|token|secret|password|passwd|auth|credential|bearer)/i;

/** A one-line description of `target` without secrets. */
export function describeTarget(target: DoctorTarget): string {
  if (target.kind === 'http') {
    const headers = Object.keys(target.headers ?? {});
    const suffix = headers.length > 0 ? ` (headers: ${headers.join(', ')})` : '';
    return `http: ${redactUrl(target.url)}${suffix}`;
  }
  const words = [target.command, ...redactArgs(target.args ?? [])];
  const env = Object.keys(target.env ?? {});
  const suffix =
    env.length > 0 ? ` (env: ${env.map((name) => `${name}=${HIDDEN}`).join(', ')})` : '';
  return `stdio: ${words.map(quoteWord).join(' ')}${suffix}`;
}

/** The URL without user info, with every query value hidden. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(invalid URL)';
  }
  url.username = '';
  url.password = '';
  const names = [...new Set(url.searchParams.keys())];
  url.search = '';
  let text = url.href;
  if (names.length > 0)
    text += `?${names.map((name) => `${encodeURIComponent(name)}=${HIDDEN}`).join('&')}`;
  return text;
}

/** Arguments with the values of secret-looking options hidden. */
export function redactArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let hideNext = false;
  for (const arg of args) {
    if (hideNext) {
      out.push(HIDDEN);
      hideNext = false;
      continue;
    }
    const option = /^(-{1,2}[^=\s]+)=(.*)$/.exec(arg);
    if (option && SECRET_NAME.test(option[1] ?? '')) {
      out.push(`${option[1]}=${HIDDEN}`);
    } else {
      out.push(arg);
      hideNext = /^-{1,2}[^=\s]+$/.test(arg) && SECRET_NAME.test(arg);
    }
  }
  return out;
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,.*/-]+$/.test(word) ? word : JSON.stringify(word);
}
