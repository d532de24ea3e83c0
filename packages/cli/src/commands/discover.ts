/** `twofold discover`: what the server is — era, versions, capabilities, info, instructions. */

import type { CommandContext } from '../cli/command';
import { EXIT, type ExitCode } from '../cli/exit-codes';
import { json } from '../cli/output';
import { renderCapabilities } from '../cli/render';
import { withConnection } from './connect';

export async function run(context: CommandContext): Promise<ExitCode> {
  return withConnection(context, async ({ client, resolved }) => {
    const discovered = await client.discover();
    const report = {
      target: resolved.label,
      era: client.era,
      protocolVersion: client.protocolVersion,
      transport: client.verdict.transport,
      supportedVersions: discovered.supportedVersions,
      serverInfo: client.serverInfo ?? null,
      capabilities: discovered.capabilities,
      instructions: discovered.instructions ?? null,
    };
    if (context.json) {
      context.print(json(report));
      return EXIT.ok;
    }
    const { bold } = context.paint;
    const info = client.serverInfo;
    const rows: [string, string][] = [
      [
        'server',
        info ? `${info.name} ${info.version}${info.title ? ` (${info.title})` : ''}` : 'unnamed',
      ],
      ['era', `${report.era}, protocol ${report.protocolVersion}, over ${report.transport}`],
      ['supports', report.supportedVersions.join(', ')],
      [
        'capabilities',
        renderCapabilities(report.capabilities as Record<string, unknown>) || 'none',
      ],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [key, value] of rows) context.print(`${bold(key.padEnd(width))}  ${value}\n`);
    if (report.instructions) context.print(`${bold('instructions')}\n${report.instructions}\n`);
    return EXIT.ok;
  });
}
