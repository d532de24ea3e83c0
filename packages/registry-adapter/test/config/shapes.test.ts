// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:NAME}` and `${input:ID}` references are the subject here
/**
 * The shapes people write an mcp.json in — twofold's and Cursor's `mcpServers`, VS Code's
 * `servers` with `inputs`, Claude Desktop's file with the app's own settings — each with comments
 * and trailing commas.
 */
import { describe, expect, it } from 'vitest';
import { parseMcpConfigText } from '../../src/config/json-text';
import { checkMcpConfig } from '../../src/config/parse';
import { resolveSecrets } from '../../src/config/secrets';
import { configServers, serversKeyOf, withConfigServers } from '../../src/config/shape';
import { configErrorOf } from './support';

const CURSOR = `{
  // Cursor and twofold: servers under "mcpServers"
  "mcpServers": {
    "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], },
    "remote": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${env:TOKEN}" } },
  },
}`;

const VS_CODE = `{
  "inputs": [
    { "type": "promptString", "id": "api-key", "description": "API key", "password": true },
  ],
  /* VS Code: servers under "servers", each with its "type" */
  "servers": {
    "fs": { "type": "stdio", "command": "npx", "args": ["-y", "server-fs"], "env": { "API_KEY": "\${input:api-key}" } },
    "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": {} },
    "events": { "type": "sse", "url": "https://mcp.example.com/sse" }, // the 2024-11-05 transport
  },
}`;

const CLAUDE_DESKTOP = `{
  "mcpServers": {
    "fs": { "command": "npx", "args": ["-y", "server-fs"], "env": { "LOG": "1" } },
  },
  // the app's own settings, which twofold leaves alone
  "globalShortcut": "Ctrl+Space",
  "preferences": { "menuBarEnabled": false },
}`;

describe('the shapes of an mcp.json', () => {
  it.each([
    ['Cursor / twofold', CURSOR, 'mcpServers', { fs: 'stdio', remote: 'http' }],
    ['VS Code', VS_CODE, 'servers', { fs: 'stdio', remote: 'http', events: 'sse' }],
    ['Claude Desktop', CLAUDE_DESKTOP, 'mcpServers', { fs: 'stdio' }],
  ])('reads %s', (_label, text, key, types) => {
    const { raw, config } = parseMcpConfigText(text);
    expect(serversKeyOf(raw)).toBe(key);
    expect(Object.keys(configServers(raw))).toEqual(Object.keys(types));
    expect(
      Object.fromEntries(Object.entries(config.mcpServers).map(([n, e]) => [n, e.type])),
    ).toEqual(types);
    // Shape-specific top-level keys never reach the parsed config.
    expect(Object.keys(config).sort()).toEqual(['conflictPolicy', 'mcpServers', 'verdicts']);
  });

  it("names the file's own key in errors of a VS Code file", () => {
    const error = configErrorOf(() =>
      parseMcpConfigText('{ "servers": { "fs": { "type": "stdio", "comand": "x" } } }'),
    );
    expect(error.issues.map((i) => i.message)).toEqual([
      'server "fs" is missing "command" (needed for a stdio server)',
      'unknown field "comand" in servers.fs (did you mean "command"?)',
    ]);
  });

  it('refuses a file with both keys', () => {
    const result = checkMcpConfig({ mcpServers: {}, servers: {} });
    expect(result.ok).toBe(false);
  });

  it("says what to do with VS Code's envFile", () => {
    const result = checkMcpConfig({ servers: { fs: { command: 'x', envFile: '.env' } } });
    expect(result.ok ? [] : result.issues.map((i) => i.message)).toEqual([
      'unknown field "envFile" in servers.fs (twofold does not read env files; list the variables in "env" as ${env:NAME} references)',
    ]);
  });

  it('edits servers under the key the document uses', () => {
    const vsCode = { servers: { a: { command: 'x' } }, inputs: [] };
    expect(withConfigServers(vsCode, { b: { url: 'https://b' } })).toEqual({
      servers: { b: { url: 'https://b' } },
      inputs: [],
    });
    expect(withConfigServers({}, { b: { command: 'y' } })).toEqual({
      mcpServers: { b: { command: 'y' } },
    });
  });
});

describe('VS Code inputs', () => {
  it('accepts ${input:…} where a secret belongs, and refuses to start the server with it', () => {
    const { config } = parseMcpConfigText(VS_CODE);
    const fs = config.mcpServers.fs;
    if (fs === undefined) throw new Error('no fs server');
    const error = configErrorOf(() => resolveSecrets(fs, {}, 'fs'));
    expect(error.issues.map((i) => i.message)).toEqual([
      'server "fs": mcpServers.fs.env.API_KEY refers to ${input:api-key}, a VS Code input that twofold cannot prompt for; write "${env:NAME}" instead and set NAME in the environment',
    ]);
  });

  it('leaves servers without inputs startable', () => {
    const { config } = parseMcpConfigText(VS_CODE);
    const remote = config.mcpServers.remote;
    if (remote === undefined) throw new Error('no remote server');
    expect(resolveSecrets(remote, {}, 'remote')).toMatchObject({
      url: 'https://mcp.example.com/mcp',
    });
  });

  it('still flags a literal secret next to an input reference', () => {
    const result = checkMcpConfig({
      servers: { fs: { command: 'x', env: { API_KEY: 'sk-live-literal-value-1234567890' } } },
    });
    expect(result.ok).toBe(false);
  });
});
