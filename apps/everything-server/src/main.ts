/**
 * Runs the everything server: `--stdio` on this process's streams, or `--http [--port N]
 * [--host H]` on a loopback HTTP endpoint whose URL is printed on stderr (stdout stays free
 * for the stdio protocol). `--auth-jwks` with `--auth-issuer` protects the HTTP endpoint.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { createServerHttpHandler } from '@twofold/server/http';
import { serveStdio } from '@twofold/server/node';
import { type ServedEndpoint, serve } from '@twofold/transports/node';
import { type AuthFlags, registerWhoamiTool, serveProtected } from './auth';
import { createEverythingServer } from './server';
import { openSharedState, requestStateKeyFromEnv } from './shared-state';

const USAGE = `usage: everything-server --stdio [--redis URL]
       everything-server --http [--port N] [--host 127.0.0.1] [--redis URL]
                         [--allowed-host NAME]... [--session-id-header NAME]
                         [--auth-jwks URL --auth-issuer URL [--auth-audience URL]
                          [--auth-scope SCOPE]...]
`;

const HELP = `${USAGE}
  --stdio               serve on stdin/stdout
  --http                serve Streamable HTTP (both eras); the URL is printed on stderr
  --port N              port to listen on (default 0: a free one)
  --host H              interface to listen on (default 127.0.0.1)
  --allowed-host NAME   a Host header to accept (repeatable), such as the public name a proxy
                        forwards; default: the loopback names of the bound port
  --session-id-header NAME
                        adopt a new legacy session's id from this header of its initialize,
                        as a proxy routing sessions by a hash of their id sets it
  --redis URL           keep what replicas share in Redis (change bus, used request states,
                        legacy stream events) instead of this process's memory

Environment: TWOFOLD_REQUEST_STATE_KEY, the request-state key in hex (at least 32 bytes);
give every replica the same one. Unset: a random key of this process.

Protected mode (HTTP only): the endpoint moves to /mcp and becomes an OAuth 2.1 resource
server. Every request needs a bearer JWT from the issuer, signed with a key of its JWKS; the
Protected Resource Metadata document, naming the issuer as authorization server, is served at
/.well-known/oauth-protected-resource/mcp without a token. A 'whoami' tool reports what the
caller's token grants.
  --auth-jwks URL       the authorization server's JWKS (enables protected mode)
  --auth-issuer URL     the accepted issuer ('iss'); also the metadata's authorization server
  --auth-audience URL   the accepted audience ('aud'); default: the endpoint URL
  --auth-scope SCOPE    a scope 'whoami' requires (repeatable); listed as scopes_supported
  -h, --help            this text
`;

/** Wrong usage (EX_USAGE of sysexits.h): what is wrong and the usage, on stderr. */
const EXIT_USAGE = 64;

function fail(message?: string): never {
  process.stderr.write(`${message === undefined ? '' : `everything-server: ${message}\n`}${USAGE}`);
  process.exit(EXIT_USAGE);
}

const OPTIONS = {
  stdio: { type: 'boolean', default: false },
  http: { type: 'boolean', default: false },
  port: { type: 'string', default: '0' },
  host: { type: 'string', default: '127.0.0.1' },
  redis: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true, default: [] as string[] },
  'session-id-header': { type: 'string' },
  'auth-jwks': { type: 'string' },
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-scope': { type: 'string', multiple: true, default: [] as string[] },
  help: { type: 'boolean', short: 'h', default: false },
} satisfies ParseArgsConfig['options'];

function parse() {
  try {
    return parseArgs({ options: OPTIONS }).values;
  } catch (error) {
    // An unknown flag or a flag without its value.
    return fail((error as Error).message);
  }
}

const values = parse();
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const port = Number(values.port);
if (values.stdio === values.http || !Number.isInteger(port) || port < 0 || port > 65535) fail();

const auth = authFlags();
const shared = await openSharedState(values.redis, requestStateKey());
const server = createEverythingServer(shared.options);
if (values.stdio) {
  await serveStdio(server);
  process.stderr.write('everything-server: serving on stdio\n');
} else {
  let endpoint: ServedEndpoint;
  if (auth === undefined) {
    // Resumable legacy streams (priming events, `retry:`, Last-Event-ID), as SEP-1699 tests them.
    const sessionIdHeader = values['session-id-header'];
    const legacy = {
      eventStore: shared.eventStore,
      retryIntervalMs: 500,
      ...(sessionIdHeader === undefined ? {} : { sessionIdHeader }),
    };
    const allowedHosts = values['allowed-host'].length > 0 ? values['allowed-host'] : undefined;
    endpoint = await serve(createServerHttpHandler(server, { legacy }), {
      host: values.host,
      port,
      allowedHosts,
    });
    process.stderr.write(`everything-server: listening on ${endpoint.url.href}\n`);
  } else {
    registerWhoamiTool(server, auth.scopes);
    const served = await serveProtected(server, auth, { host: values.host, port });
    endpoint = served.endpoint;
    process.stderr.write(`everything-server: protected; metadata at ${served.metadataUrl.href}\n`);
    process.stderr.write(`everything-server: listening on ${served.url.href}\n`);
  }
  const stop = () => {
    void endpoint
      .close()
      .then(() => shared.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The key of `TWOFOLD_REQUEST_STATE_KEY`; a malformed one is a usage error. */
function requestStateKey(): Uint8Array | undefined {
  try {
    return requestStateKeyFromEnv(process.env);
  } catch (error) {
    return fail((error as Error).message);
  }
}

/** The `--auth-*` flags, checked; `undefined` when protected mode is off. */
function authFlags(): AuthFlags | undefined {
  const jwksUrl = values['auth-jwks'];
  const issuer = values['auth-issuer'];
  const audience = values['auth-audience'];
  const scopes = values['auth-scope'];
  if (jwksUrl === undefined) {
    if (issuer !== undefined || audience !== undefined || scopes.length > 0) {
      fail('the --auth-* flags need --auth-jwks');
    }
    return undefined;
  }
  if (!values.http)
    fail('protected mode needs --http (stdio takes credentials from its environment)');
  if (issuer === undefined) fail('--auth-jwks needs --auth-issuer');
  for (const [flag, url] of [
    ['--auth-jwks', jwksUrl],
    ['--auth-issuer', issuer],
    ['--auth-audience', audience],
  ] as const) {
    if (url !== undefined && !URL.canParse(url)) fail(`${flag} must be an absolute URL`);
  }
  return { jwksUrl, issuer, audience, scopes };
}
