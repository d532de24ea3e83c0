/**
 * The tasks extension's wire (SEP-2663): its schemas against the specification's examples,
 * the routing header of task requests, and span names that leave task ids out.
 */
import { describe, expect, it } from 'vitest';
import {
  buildRequestHeaders,
  checkRequestHeaders,
  describeMcpSpan,
  isTerminalTaskStatus,
  mcpNameFor,
  TASKS_METHODS,
  tasksWire,
} from '../src/experimental';

const task = {
  taskId: '786512e2-9e0d-44bd-8f29-789f320fe840',
  status: 'working',
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:40:00Z',
  ttlMs: 60000,
  pollIntervalMs: 5000,
};

describe('tasks extension wire', () => {
  it('accepts the flat CreateTaskResult and the DetailedTask of each status', () => {
    expect(tasksWire.CreateTaskResult.safeParse({ ...task, resultType: 'task' }).success).toBe(
      true,
    );
    const details = [
      task,
      {
        ...task,
        status: 'input_required',
        inputRequests: { name: { method: 'elicitation/create' } },
      },
      { ...task, status: 'completed', result: { content: [] } },
      { ...task, status: 'failed', error: { code: -32603, message: 'rate limit' } },
      { ...task, status: 'cancelled', ttlMs: null },
    ];
    for (const detail of details) {
      expect(tasksWire.GetTaskResult.safeParse({ ...detail, resultType: 'complete' }).success).toBe(
        true,
      );
    }
  });

  it('rejects the shapes the extension replaced or forbids', () => {
    const nested = { resultType: 'task', task };
    expect(tasksWire.CreateTaskResult.safeParse(nested).success).toBe(false);
    expect(tasksWire.Task.safeParse({ ...task, ttlMs: 1.5 }).success).toBe(false);
    const completedWithoutResult = { ...task, status: 'completed', resultType: 'complete' };
    expect(tasksWire.GetTaskResult.safeParse(completedWithoutResult).success).toBe(false);
    expect(tasksWire.UpdateTaskParams.safeParse({ taskId: 't' }).success).toBe(false);
  });

  it('names completed, failed and cancelled terminal', () => {
    expect(['working', 'input_required'].map((s) => isTerminalTaskStatus(s as never))).toEqual([
      false,
      false,
    ]);
    expect(
      ['completed', 'failed', 'cancelled'].map((s) => isTerminalTaskStatus(s as never)),
    ).toEqual([true, true, true]);
  });

  it('routes task requests on Mcp-Name = taskId, and keeps task ids out of span names', () => {
    const message = { id: 1, method: TASKS_METHODS.get, params: { taskId: 'task-1' } };
    expect(mcpNameFor(message.method, message.params)).toBe('task-1');
    const headers = buildRequestHeaders(message, '2026-07-28');
    expect(headers['Mcp-Name']).toBe('task-1');
    const lookup = (extra: Record<string, string>) => (name: string) =>
      ({ ...headers, ...extra })[name] ?? null;
    expect(checkRequestHeaders(lookup({}), message)).toEqual({ ok: true });
    expect(checkRequestHeaders(lookup({ 'Mcp-Name': 'task-2' }), message)).toMatchObject({
      ok: false,
      header: 'Mcp-Name',
    });
    expect(describeMcpSpan(message).name).toBe('tasks/get');
  });
});
