/** Writing an edited mcp.json back: only what changed is edited in the text. */
import { describe, expect, it } from 'vitest';
import { editJsonText } from '../../src/config/json-edit';
import { parseJsonObject } from '../../src/config/json-text';
import { withConfigServers } from '../../src/config/shape';

const VS_CODE = `{
\t// my servers
\t"servers": {
\t\t"fs": { "type": "stdio", "command": "npx" }, // local
\t},
\t"inputs": [],
}
`;

describe('editJsonText', () => {
  it('gives back the same bytes when nothing changed', () => {
    const raw = parseJsonObject(VS_CODE);
    expect(editJsonText(VS_CODE, raw, structuredClone(raw))).toBe(VS_CODE);
  });

  it('keeps comments, tabs and the VS Code shape through an edit', () => {
    const raw = parseJsonObject(VS_CODE);
    const next = withConfigServers(raw, {
      ...(raw.servers as Record<string, unknown>),
      web: { type: 'http', url: 'https://mcp.example.com/mcp' },
    });
    const text = editJsonText(VS_CODE, raw, next);
    expect(text).toContain('// my servers');
    expect(text).toContain('// local');
    expect(text).toContain('\t\t"web": {');
    expect(parseJsonObject(text)).toEqual(next);
  });

  it('removes the last server and still writes valid JSON', () => {
    const raw = parseJsonObject(VS_CODE);
    const text = editJsonText(VS_CODE, raw, withConfigServers(raw, {}));
    expect(parseJsonObject(text)).toEqual({ servers: {}, inputs: [] });
  });
});
