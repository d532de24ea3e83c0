/**
 * Every command: its words, help text, options and examples, and a loader for its code. Only
 * this table is read to parse a command line or print help (the entry hands it to ../cli, which
 * never imports a command); a command's code (and what it imports: the client, the server)
 * loads when that command runs.
 */
import type { CommandSpec } from '../cli/command';
import { type OptionSpec, TARGET_OPTIONS } from '../cli/options';

/** How a secret is written in an mcp.json. */
const ENV_REF = `$${'{'}env:NAME}`;

const SERVER = '--stdio "npx -y @modelcontextprotocol/server-everything"';

/**
 * The commands of `twofold`, in help order.
 *
 * @experimental
 */
export const COMMANDS: readonly CommandSpec[] = [
  {
    path: ['discover'],
    summary: 'what the server is: era, versions, capabilities, server info, instructions',
    target: true,
    examples: [
      `twofold discover ${SERVER}`,
      'twofold discover --url http://127.0.0.1:3000/mcp --json',
    ],
    load: () => import('./discover'),
  },
  {
    path: ['tools', 'list'],
    summary: 'the tools, one row each',
    target: true,
    examples: [`twofold tools list ${SERVER}`, 'twofold tools list --server github --json'],
    load: () => import('./tools'),
  },
  {
    path: ['tools', 'call'],
    summary: 'call a tool; key=value arguments are coerced by its input schema',
    args: '<name> [key=value ...]',
    target: true,
    options: {
      args: { type: 'string', value: 'json', description: 'the arguments as one JSON object' },
      'args-file': { type: 'string', value: 'path', description: 'the arguments from a file' },
      'max-total-timeout': {
        type: 'string',
        value: 'ms',
        description:
          'the longest the call may run in all, though progress keeps resetting --timeout (default 600000)',
      },
      task: {
        type: 'boolean',
        description:
          'let the server run the call as a task: a live status line, Ctrl-C cancels the task',
      },
    },
    examples: [
      `twofold tools call echo message=hello ${SERVER}`,
      `twofold tools call get-sum --args '{"a":1,"b":2}' ${SERVER}`,
      `twofold tools call build --task --url http://127.0.0.1:3000/mcp`,
    ],
    details:
      'Progress notifications drive a progress bar on a terminal and reset --timeout; --max-total-timeout still ends the call (exit 75). Input requests are answered on a terminal, or from --answers. Exit code 1 when the tool returns an error result. A tool that requires tasks runs as one with or without --task.',
    load: () => import('./tools'),
  },
  {
    path: ['tasks', 'get'],
    summary: 'a task the server runs (the tasks extension): its status and message',
    args: '<taskId>',
    target: true,
    examples: ['twofold tasks get 7f3c --url http://127.0.0.1:3000/mcp --json'],
    load: () => import('./tasks'),
  },
  {
    path: ['tasks', 'wait'],
    summary: "follow a task to its end and print the tool's result (Ctrl-C stops waiting)",
    args: '<taskId>',
    target: true,
    examples: ['twofold tasks wait 7f3c --url http://127.0.0.1:3000/mcp'],
    details: 'Exit code 1 when the result is an error result.',
    load: () => import('./tasks'),
  },
  {
    path: ['tasks', 'cancel'],
    summary: 'ask the server to cancel a task',
    args: '<taskId>',
    target: true,
    examples: ['twofold tasks cancel 7f3c --url http://127.0.0.1:3000/mcp'],
    load: () => import('./tasks'),
  },
  {
    path: ['resources', 'list'],
    summary: 'the resources',
    target: true,
    examples: [`twofold resources list ${SERVER}`],
    load: () => import('./resources'),
  },
  {
    path: ['resources', 'templates'],
    summary: 'the resource templates',
    target: true,
    examples: [`twofold resources templates ${SERVER}`],
    load: () => import('./resources'),
  },
  {
    path: ['resources', 'read'],
    summary: 'read a resource',
    args: '<uri>',
    target: true,
    examples: [`twofold resources read demo://resource/static/document/architecture.md ${SERVER}`],
    load: () => import('./resources'),
  },
  {
    path: ['skills', 'list'],
    summary: 'the skills (io.modelcontextprotocol/skills): name, SKILL.md URI, file count',
    target: true,
    examples: ['twofold skills list --url http://127.0.0.1:3000/mcp'],
    load: () => import('./skills'),
  },
  {
    path: ['skills', 'read'],
    summary: "read a skill's SKILL.md, or one of its files, verified against its digest",
    args: '<name|uri> [file]',
    target: true,
    examples: [
      'twofold skills read pdf-processing --url http://127.0.0.1:3000/mcp',
      'twofold skills read pdf-processing references/FORMS.md --url http://127.0.0.1:3000/mcp',
    ],
    details:
      'Only the files asked for are read. A file whose size, digest or frontmatter differs from the skill entry is refused (exit 65).',
    load: () => import('./skills'),
  },
  {
    path: ['prompts', 'list'],
    summary: 'the prompts',
    target: true,
    examples: [`twofold prompts list ${SERVER}`],
    load: () => import('./prompts'),
  },
  {
    path: ['prompts', 'get'],
    summary: 'get a prompt; key=value arguments',
    args: '<name> [key=value ...]',
    target: true,
    examples: [`twofold prompts get args-prompt city=Paris ${SERVER}`],
    load: () => import('./prompts'),
  },
  {
    path: ['complete'],
    summary: "complete a prompt's or a resource template's argument",
    args: '<argument>=<partial value>',
    target: true,
    options: {
      prompt: { type: 'string', value: 'name', description: 'complete an argument of this prompt' },
      resource: {
        type: 'string',
        value: 'uri template',
        description: 'complete a variable of this resource template',
      },
      context: {
        type: 'string',
        multiple: true,
        value: 'K=V',
        description: 'arguments already given (repeatable)',
      },
    },
    examples: [`twofold complete --prompt completable-prompt department=Eng ${SERVER}`],
    load: () => import('./complete'),
  },
  {
    path: ['listen'],
    summary: 'print change notifications as NDJSON until interrupted',
    target: true,
    options: {
      tools: { type: 'boolean', description: 'tool list changes' },
      prompts: { type: 'boolean', description: 'prompt list changes' },
      resources: { type: 'boolean', description: 'resource list changes' },
      resource: {
        type: 'string',
        multiple: true,
        value: 'uri',
        description: 'updates of one resource (repeatable)',
      },
    },
    details: 'Without a filter option it listens to every list change.',
    examples: [
      `twofold listen --tools ${SERVER}`,
      'twofold listen --resource file:///notes.md --server notes',
    ],
    load: () => import('./listen'),
  },
  {
    path: ['login'],
    summary: 'log in to an HTTP server that asks for OAuth; the tokens are kept for later runs',
    target: true,
    options: {
      force: { type: 'boolean', description: 'log in again even when a stored token still works' },
    },
    examples: [
      'twofold login --url https://mcp.example.com/mcp',
      'twofold login --server github --scope "repo read:org"',
      'TWOFOLD_CLIENT_SECRET=… twofold login --url https://mcp.example.com/mcp --grant client-credentials --client-id ci-bot',
    ],
    details:
      'Opens the authorization URL in a browser (TWOFOLD_BROWSER or BROWSER choose it; it is printed on stderr too) and waits on a loopback port for the redirect. Commands run it by themselves on a terminal; elsewhere they exit 77 naming this command. Tokens are kept in ~/.config/twofold/auth (TWOFOLD_AUTH_DIR), readable only by you.',
    load: () => import('./login'),
  },
  {
    path: ['logout'],
    summary: 'forget the tokens kept for a server (they are not revoked at the server)',
    target: true,
    examples: [
      'twofold logout --url https://mcp.example.com/mcp',
      'twofold logout --server github',
    ],
    load: () => import('./login'),
  },
  ...configCommands(),
  {
    path: ['doctor'],
    summary: 'check a server against the specification (pass / warn / fail per check)',
    target: true,
    options: {
      'startup-timeout': {
        type: 'string',
        value: 'ms',
        description:
          'stdio: what each process the doctor starts may take to start, on top of a step (default 3 steps)',
      },
    },
    examples: [`twofold doctor ${SERVER}`, 'twofold doctor --url http://127.0.0.1:3000/mcp --json'],
    details: 'Exit code 1 when a check fails.',
    load: () => import('./doctor'),
  },
  {
    path: ['bridge'],
    summary: 'publish a stdio server over HTTP (--listen), or an HTTP server on stdio',
    target: true,
    options: {
      listen: {
        type: 'string',
        value: 'host:port',
        description: 'serve the stdio target as Streamable HTTP here (loopback)',
      },
      'allow-origin': {
        type: 'string',
        multiple: true,
        value: 'origin',
        description: 'a browser Origin to accept besides loopback ones (repeatable)',
      },
      'auth-issuer': {
        type: 'string',
        value: 'url',
        description: 'with --listen: require bearer tokens from this authorization server',
      },
      'auth-jwks': {
        type: 'string',
        value: 'url',
        description: "its key set (default: its metadata's jwks_uri)",
      },
      'auth-scope': {
        type: 'string',
        multiple: true,
        value: 'scope',
        description: 'a scope every downstream token needs (repeatable)',
      },
      'auth-resource': {
        type: 'string',
        value: 'url',
        description: 'the resource tokens are issued for (default: the bridge URL)',
      },
    },
    examples: [
      `twofold bridge --listen 127.0.0.1:8080 ${SERVER}`,
      'twofold bridge --url https://mcp.example.com/mcp   # an HTTP server on stdio',
      'twofold bridge --listen 127.0.0.1:8080 --auth-issuer https://auth.example.com --url https://mcp.example.com/mcp',
    ],
    details:
      "Either era on either side: requests, notifications, progress, cancellation, input rounds and change notifications are translated between eras. An HTTP upstream that asks for OAuth gets the bridge's own token (twofold login); downstream tokens are checked, never passed on.",
    load: () => import('./bridge'),
  },
  {
    path: ['demo'],
    summary: 'start a demo server and run a short real exchange in both eras, explained',
    target: false,
    examples: ['twofold demo'],
    load: () => import('./demo'),
  },
];

function configCommands(): CommandSpec[] {
  const load = () => import('./config');
  const file = 'the mcp.json to edit (--config)';
  return [
    {
      path: ['config', 'list'],
      summary: `the servers of ${file}`,
      target: false,
      options: { config: TARGET_OPTIONS.config as OptionSpec },
      examples: ['twofold config list', 'twofold config list --config ./mcp.json --json'],
      load,
    },
    {
      path: ['config', 'show'],
      summary: 'one server entry, secrets redacted',
      args: '<name>',
      target: false,
      options: { config: TARGET_OPTIONS.config as OptionSpec },
      examples: ['twofold config show github'],
      load,
    },
    {
      path: ['config', 'add'],
      summary: 'add a server (--url, --stdio or the command after --)',
      args: '<name>',
      target: false,
      options: pick(TARGET_OPTIONS, [
        'url',
        'stdio',
        'config',
        'era',
        'protocol-version',
        'header',
        'env',
      ]),
      examples: [
        'twofold config add everything -- npx -y @modelcontextprotocol/server-everything',
        `twofold config add search --url https://search.example.com/mcp --header 'Authorization:Bearer \${env:SEARCH_TOKEN}'`,
      ],
      details: `Secrets must be ${ENV_REF} references; literal ones are refused.`,
      load,
    },
    ...(['remove', 'enable', 'disable'] as const).map((verb) => ({
      path: ['config', verb],
      summary: `${verb} a server`,
      args: '<name>',
      target: false,
      options: { config: TARGET_OPTIONS.config as OptionSpec },
      examples: [`twofold config ${verb} github`],
      load,
    })),
  ];
}

function pick(
  options: Record<string, OptionSpec>,
  names: readonly string[],
): Record<string, OptionSpec> {
  return Object.fromEntries(names.map((name) => [name, options[name] as OptionSpec]));
}
