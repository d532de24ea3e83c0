/**
 * Negotiating the tasks extension: the server advertises it under `capabilities.extensions`
 * (modern only: SEP-2663 does not define it for legacy revisions), and a client declares it in
 * each request's `clientCapabilities`.
 */
import {
  type ClientCapabilities,
  MissingRequiredClientCapabilityError,
  type ServerCapabilities,
  TASKS_EXTENSION_ID,
} from '@twofold/protocol/experimental';

/** `capabilities` advertising the extension too (once any tool supports tasks). */
export function withTasksExtension(capabilities: ServerCapabilities): ServerCapabilities {
  return {
    ...capabilities,
    extensions: { ...capabilities.extensions, [TASKS_EXTENSION_ID]: {} },
  };
}

/** Whether the server advertises the extension. */
export function offersTasks(capabilities: ServerCapabilities): boolean {
  return capabilities.extensions?.[TASKS_EXTENSION_ID] !== undefined;
}

/** Whether a request's client capabilities declare the extension. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  return capabilities.extensions?.[TASKS_EXTENSION_ID] !== undefined;
}

/** -32021 naming the extension: what a client without it gets where only a task will do. */
export function tasksRequiredError(): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { extensions: { [TASKS_EXTENSION_ID]: {} } },
    `Missing required client capability: the ${TASKS_EXTENSION_ID} extension`,
  );
}

/** The capabilities of a legacy session: the extension is not defined there. */
export function withoutTasksExtension(capabilities: ServerCapabilities): ServerCapabilities {
  if (!offersTasks(capabilities)) return capabilities;
  const { [TASKS_EXTENSION_ID]: _tasks, ...others } = capabilities.extensions ?? {};
  const { extensions: _extensions, ...rest } = capabilities;
  return Object.keys(others).length > 0 ? { ...rest, extensions: others } : rest;
}
