// The floor's client: plain Node, no library, no validation. Over stdio it spawns the server,
// writes newline-delimited JSON and frames the answers in linear time; over HTTP it POSTs each
// message on a keep-alive `node:http` agent. Era `legacy` opens with `initialize`; otherwise
// the first message is already the request, carrying the modern `_meta`.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { onLines } from '../servers/common.mjs';
import { runDriver } from './driver.mjs';

const CLIENT_INFO = { name: 'bench-client', version: '1.0.0' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
};

// What the server inherits of this process's environment: the variables every library client
// here passes by default (twofold's and the official SDKs'), never the whole environment. A
// variable such as NODE_EXTRA_CA_CERTS makes Node load certificates at start, so the whole
// environment made the floor's server start about 40 ms later than the libraries' servers.
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM'];
const serverEnv = () =>
  Object.fromEntries(INHERITED_ENV.flatMap((k) => (k in process.env ? [[k, process.env[k]]] : [])));

/** A pipe to a spawned server: send a message, get the answer to it by id. */
function stdioLink(target, onExit) {
  const child = spawn(target.command, target.args, {
    cwd: target.cwd,
    env: serverEnv(),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map();
  onLines(child.stdout, (line) => {
    const message = JSON.parse(line.toString('utf8'));
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  exited.then(() => {
    onExit();
    for (const settle of waiting.values()) settle({ error: { message: 'the server exited' } });
    waiting.clear();
  });
  child.stdin.on('error', () => {});
  return {
    exchange(message) {
      return new Promise((resolve) => {
        if (message.id !== undefined) waiting.set(message.id, resolve);
        child.stdin.write(`${JSON.stringify(message)}\n`);
        if (message.id === undefined) resolve(undefined);
      });
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill(), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** An HTTP endpoint: each message is one POST on a keep-alive connection. */
function httpLink(target) {
  const agent = new Agent({ keepAlive: true });
  const url = new URL(target.url);
  return {
    exchange(message) {
      const body = JSON.stringify(message);
      return new Promise((resolve, reject) => {
        const req = request(
          url,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            const chunks = [];
            res.on('data', (chunk) => chunks.push(chunk));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              resolve(text === '' ? undefined : JSON.parse(text));
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    async close() {
      agent.destroy();
    },
  };
}

async function connect(target) {
  let lostListener = () => {};
  const link =
    target.kind === 'stdio'
      ? stdioLink(target, () => lostListener('the server exited'))
      : httpLink(target);
  const legacy = target.era === 'legacy';
  let nextId = 1;
  const ask = async (method, params) => {
    const answer = await link.exchange({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: legacy ? params : { ...params, _meta: MODERN_META },
    });
    if (answer?.error) throw new Error(answer.error.message);
    return answer.result;
  };
  if (legacy) {
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO };
    await ask('initialize', init);
    await link.exchange({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  return {
    era: legacy ? 'legacy' : 'modern',
    async listTools() {
      return (await ask('tools/list', {})).tools.length;
    },
    async call(name, args) {
      return (await ask('tools/call', { name, arguments: args })).content[0]?.text;
    },
    onLost: (listener) => {
      lostListener = listener;
    },
    close: () => link.close(),
  };
}

runDriver({ connect });
