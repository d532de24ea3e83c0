// Every class a package exports keeps its own name once bundled, as ESM and as CJS, so errors
// print as users know them (`ProtocolError: …`, not a bundler's `_ProtocolError: …`). turbo
// builds the packages before this test (devDependencies).
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { publishedPackages } from '../src/workspace.ts';

const require = createRequire(import.meta.url);

function exportedClasses(entry: Record<string, unknown>): [string, { name: string }][] {
  return Object.entries(entry).filter(
    (pair): pair is [string, { name: string }] =>
      typeof pair[1] === 'function' && /^class\b/.test(Function.prototype.toString.call(pair[1])),
  );
}

describe('exported class names', () => {
  for (const { json } of publishedPackages()) {
    it(`${json.name}/experimental keeps every class name, as ESM and CJS`, async () => {
      const esm = (await import(`${json.name}/experimental`)) as Record<string, unknown>;
      const cjs = require(`${json.name}/experimental`) as Record<string, unknown>;
      for (const entry of [esm, cjs]) {
        const renamed = exportedClasses(entry).filter(([name, value]) => value.name !== name);
        expect(renamed.map(([name, value]) => `${name} is named ${value.name}`)).toEqual([]);
      }
    });
  }
});

type ErrorClass = new (...args: unknown[]) => Error;

interface ExportedErrorClass {
  /** The entry exporting it, e.g. `@twofold/client/experimental`. */
  where: string;
  name: string;
  value: ErrorClass;
}

/** One plausible instance of each exported error class: a new error class needs a line here. */
const errorSamples: Record<string, (Class: ErrorClass) => Error> = {
  AuthorizationError: (E) => new E('token', 'the token endpoint answered 400'),
  CliError: (E) => new E(69, 'cannot reach the server'),
  HeaderMismatchError: (E) => new E('Mcp-Name does not match the body', { header: 'Mcp-Name' }),
  InputResponseError: (E) => new E('confirm', ['expected a boolean']),
  InputRoundsExceededError: (E) => new E('book', 8),
  InvalidTokenError: (E) => new E(),
  LocalError: (E) => new E('REQUEST_TIMEOUT', 'Request tools/call timed out after 60000 ms'),
  McpConfigError: (E) => new E([{ path: 'mcpServers.docs', message: 'command is missing' }]),
  MissingRequiredClientCapabilityError: (E) => new E({ elicitation: {} }),
  OperationError: (E) => new E('not-found', 'Unknown tool: search'),
  ProtocolError: (E) => new E(-32600, 'Invalid request'),
  SkillVerificationError: (E) =>
    new E('digest', 'skill://pdf/SKILL.md', 'skill://pdf/SKILL.md: the digest differs'),
  TaskStoreFullError: (E) => new E(1000),
  ToolInputRequiredError: (E) =>
    new E('book', {}, { resultType: 'input_required', inputRequests: {}, state: null }),
  ToolNameConflictError: (E) => new E('search', ['docs', 'tickets']),
  ToolUnavailableError: (E) => new E('search', 'docs', 'disconnected'),
  UnsupportedProtocolVersionError: (E) => new E(['2026-07-28'], '2099-01-01'),
};

/** Every exported class whose prototype chain reaches `Error`, from every entry of every package. */
async function exportedErrorClasses(): Promise<ExportedErrorClass[]> {
  const found: ExportedErrorClass[] = [];
  for (const { json } of publishedPackages()) {
    for (const subpath of Object.keys(json.exports ?? {})) {
      if (subpath === './package.json') continue;
      const where = `${json.name}${subpath.slice(1)}`;
      const entry = (await import(where)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(entry)) {
        if (typeof value === 'function' && value.prototype instanceof Error) {
          found.push({ where, name, value: value as ErrorClass });
        }
      }
    }
  }
  return found;
}

describe('exported error classes', () => {
  it('print under their own name', async () => {
    const classes = await exportedErrorClasses();
    expect(classes.length).toBeGreaterThan(0);
    const misprinted: string[] = [];
    for (const { where, name, value } of classes) {
      const sample = errorSamples[name];
      if (!sample) {
        misprinted.push(`${where}: ${name} has no entry in errorSamples`);
        continue;
      }
      const printed = inspect(sample(value));
      // `Name: …` (a subclass that kept its parent's `name` would print `Name [Parent]: …`).
      if (!printed.startsWith(`${name}: `)) {
        misprinted.push(`${where}: ${name} prints as ${printed}`);
      }
    }
    expect(misprinted).toEqual([]);
  });
});
