/**
 * The one error an `mcp.json` problem produces, carrying every problem found, not just the first.
 */

/**
 * One problem in an `mcp.json`.
 *
 * @experimental
 */
export interface McpConfigIssue {
  /** Where, as a readable path such as `mcpServers.github.env.GITHUB_TOKEN` (`''` for the root). */
  path: string;
  /** A complete sentence naming the field; never contains a secret value. */
  message: string;
}

/**
 * An `mcp.json` (or one server entry) that cannot be used: invalid JSON, unknown or misspelt
 * fields, missing `command`/`url`, literal secrets, or an unset `${env:NAME}` variable. `message`
 * lists every issue.
 *
 * @experimental
 */
export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
  /** Every problem found, in document order. */
  readonly issues: readonly McpConfigIssue[];
  /** The file the problems are in, when read from one. */
  readonly file: string | undefined;

  constructor(issues: readonly McpConfigIssue[], options: { file?: string; cause?: unknown } = {}) {
    super(formatIssues(issues, options.file), { cause: options.cause });
    this.issues = issues;
    this.file = options.file;
  }
}

function formatIssues(issues: readonly McpConfigIssue[], file: string | undefined): string {
  const where = file === undefined ? 'invalid MCP config' : `invalid MCP config ${file}`;
  if (issues.length === 1) return `${where}: ${issues[0]?.message}`;
  return `${where} (${issues.length} problems):\n${issues.map((i) => `  - ${i.message}`).join('\n')}`;
}
