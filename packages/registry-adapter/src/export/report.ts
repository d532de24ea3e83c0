/**
 * What exporting tools to MCP lost or left out, tool by tool.
 */
import type { SchemaLoss } from '../schema/reports';

/**
 * One tool's conversion: what its schemas cannot say (paths point into the tool definition,
 * e.g. `/inputSchema/properties/when`), and why it was not served, when it was not.
 *
 * @experimental
 */
export interface ToolConversion {
  readonly name: string;
  readonly losses: readonly SchemaLoss[];
  /** Set when the tool is not served (e.g. the server refused its name or schema). */
  readonly skipped?: string;
}

/**
 * The conversion report of an export, one entry per tool, by name.
 *
 * @experimental
 */
export interface ConversionReport {
  readonly tools: readonly ToolConversion[];
}
