/**
 * Tasks across the bridge. A modern upstream that offers the tasks extension makes every
 * bridged tool a task tool downstream (`optional`: the upstream decides per call, as the
 * extension lets it). A downstream task runs as the upstream one: the upstream task's status
 * messages become the downstream task's, its end is the downstream task's end, a downstream
 * cancel cancels it upstream, and the input it asks for goes downstream as the task's own
 * `input_required`, whose answers the retry hands to the upstream task (`tasks/update`).
 */
import type { McpClient, ToolTask } from '@twofold/client/experimental';
import {
  type CallToolResult,
  type InputRequest,
  isRecord,
  type ServerCapabilities,
  TASKS_EXTENSION_ID,
} from '@twofold/protocol/experimental';
import { InputRequired, type RequestContext } from '@twofold/server/experimental';

/** The state of a downstream task waiting for input the upstream task asked for. */
interface UpstreamTaskState {
  upstreamTask: string;
}

/** Whether the upstream offers the extension (modern only). */
export function upstreamOffersTasks(client: McpClient): boolean {
  const { extensions } = client.serverCapabilities as { extensions?: unknown };
  return client.era === 'modern' && isRecord(extensions) && TASKS_EXTENSION_ID in extensions;
}

/** The served capabilities, advertising the extension when the upstream offers it. */
export function withUpstreamTasks(
  client: McpClient,
  capabilities: ServerCapabilities,
): ServerCapabilities {
  if (!upstreamOffersTasks(client)) return capabilities;
  return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION_ID]: {} } };
}

/** What the upstream call carries of the downstream request (trace, capabilities). */
export type UpstreamCallOptions = { meta?: Record<string, unknown>; trace?: unknown };

/**
 * Runs one attempt of a downstream task as the upstream task: started on the first attempt,
 * resumed (with the downstream answers) on the attempt after an `InputRequired`.
 */
export async function runBridgedTask(
  client: McpClient,
  name: string,
  args: Record<string, unknown> | undefined,
  context: RequestContext,
  forwarded: UpstreamCallOptions,
): Promise<CallToolResult | InputRequired> {
  // Not aborted by the downstream cancel: a task created upstream meanwhile must be cancelled,
  // which needs its id.
  const manual = { inputMode: 'manual' as const };
  let task: ToolTask;
  if (isUpstreamTaskState(context.state)) {
    task = await client.resumeToolTask(context.state.upstreamTask, manual);
    await task.answer({ ...context.inputResponses });
  } else {
    const start = await client.startToolTask(name, args, {
      ...manual,
      ...(forwarded as object),
      validateOutput: false,
    });
    if (start.result) return start.result;
    task = start.task;
  }
  const cancel = () => void task.cancel().catch(() => undefined);
  if (context.signal.aborted) cancel();
  context.signal.addEventListener('abort', cancel, { once: true });
  try {
    for await (const state of task.updates()) {
      if (state.statusMessage) await context.task?.reportStatus(state.statusMessage);
      if (state.status === 'input_required' && !answeredBefore(state.inputRequests, context)) {
        const requests = state.inputRequests as Record<string, InputRequest>;
        return new InputRequired(requests, {
          upstreamTask: task.taskId,
        } satisfies UpstreamTaskState);
      }
    }
    return await task.result({ signal: context.signal });
  } finally {
    context.signal.removeEventListener('abort', cancel);
  }
}

/** The upstream still lists requests this attempt has just answered (its update is in flight). */
function answeredBefore(requests: Record<string, unknown>, context: RequestContext): boolean {
  const answered = context.inputResponses ?? {};
  return Object.keys(requests).every((key) => key in answered);
}

function isUpstreamTaskState(state: unknown): state is UpstreamTaskState {
  return typeof (state as UpstreamTaskState | undefined)?.upstreamTask === 'string';
}
