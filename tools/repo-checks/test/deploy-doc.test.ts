// docs/deploy.md shows the nginx configuration the deployment tests run (packages/redis), so the
// page cannot drift from what is tested.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../src/workspace.ts';

describe('docs/deploy.md', () => {
  it('includes deploy/nginx/mcp.conf verbatim', () => {
    const page = readFileSync(join(repoRoot, 'docs', 'deploy.md'), 'utf8');
    const conf = readFileSync(join(repoRoot, 'deploy', 'nginx', 'mcp.conf'), 'utf8');
    expect(page).toContain(`\`\`\`nginx\n${conf}\`\`\``);
  });
});
