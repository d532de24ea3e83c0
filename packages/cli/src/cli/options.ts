/**
 * The options every command that talks to a server shares (the target and how to reach it),
 * and the output options. Kept apart from the commands so `--help` loads nothing else.
 */

/**
 * One option of a command.
 *
 * @experimental
 */
export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** The value's name in help (`--timeout <ms>`). */
  value?: string;
  description: string;
}

/** How to reach a server. */
export const TARGET_OPTIONS: Record<string, OptionSpec> = {
  url: { type: 'string', value: 'url', description: 'an HTTP(S) MCP endpoint' },
  stdio: {
    type: 'string',
    value: 'command line',
    description: 'a stdio server to start (no shell; or give the command after --)',
  },
  server: { type: 'string', value: 'name', description: 'a server of the mcp.json (--config)' },
  config: {
    type: 'string',
    value: 'path',
    description: 'the mcp.json (default ./mcp.json, then ~/.config/twofold/mcp.json)',
  },
  era: { type: 'string', value: 'auto|modern|legacy', description: 'protocol era (default auto)' },
  'protocol-version': { type: 'string', value: 'version', description: 'pin the version' },
  header: {
    type: 'string',
    multiple: true,
    value: 'K:V',
    description: 'an HTTP header (repeatable)',
  },
  env: {
    type: 'string',
    multiple: true,
    value: 'K=V',
    description: 'an environment variable for a stdio server (repeatable)',
  },
  timeout: {
    type: 'string',
    value: 'ms',
    description: 'connect and request timeout (default 30000)',
  },
  'no-cache': {
    type: 'boolean',
    description: 'neither read nor store cached results and era verdicts',
  },
  answers: {
    type: 'string',
    value: 'path',
    description: 'a JSON file answering input requests (elicitation, sampling, roots)',
  },
};

/** Output options every command has. */
export const OUTPUT_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'machine-readable output (docs/cli.md)' },
  verbose: {
    type: 'boolean',
    short: 'v',
    description: 'trace every message on stderr (secrets redacted)',
  },
  help: { type: 'boolean', short: 'h', description: 'show help' },
};
