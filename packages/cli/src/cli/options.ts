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
    description: 'connect and request timeout (default 30000); connecting includes the era probe',
  },
  'probe-timeout': {
    type: 'string',
    value: 'ms',
    description:
      'how long the server/discover probe gets before initialize is tried beside it (stdio; default 3000); over HTTP its whole bound (default --timeout)',
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

/**
 * How to authorize to an HTTP server that asks for OAuth (every command with a target).
 * Secrets are better given in the environment than on the command line.
 */
export const AUTH_OPTIONS: Record<string, OptionSpec> = {
  'client-id': {
    type: 'string',
    value: 'id',
    description: 'OAuth: a pre-registered client id (default: register; env TWOFOLD_CLIENT_ID)',
  },
  'client-secret': {
    type: 'string',
    value: 'secret',
    description: 'OAuth: its secret (better in env TWOFOLD_CLIENT_SECRET)',
  },
  scope: {
    type: 'string',
    value: 'scopes',
    description: 'OAuth: scopes to ask for, space-separated',
  },
  grant: {
    type: 'string',
    value: 'authorization-code|client-credentials',
    description: 'OAuth: a browser login (default), or client credentials for automation',
  },
  'login-timeout': {
    type: 'string',
    value: 'ms',
    description: 'how long a browser login may take (default 300000)',
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
