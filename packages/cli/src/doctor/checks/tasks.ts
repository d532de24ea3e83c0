/**
 * `tasks-extension`: when a server declares io.modelcontextprotocol/tasks (SEP-2663), its
 * settings are an object, a `tasks/get` of an unknown task declaring the extension is refused
 * as invalid params (-32602) and one not declaring it is refused for the missing extension
 * (-32021), and `tasks/result` and `tasks/list`, which the extension removed, are unknown
 * methods (-32601). No task is created: the doctor cannot know which call would be long.
 */
import {
  ErrorCode,
  isRecord,
  ProtocolError,
  TASKS_EXTENSION_ID,
  TASKS_METHODS,
} from '@twofold/protocol/experimental';
import { SPEC } from '../spec-refs';
import { messageOf } from '../util';
import { type CheckDefinition, Findings, notConnected, skip } from './define';

const UNKNOWN_TASK = 'twofold-doctor-no-such-task';

export const tasksExtension: CheckDefinition = {
  id: 'tasks-extension',
  title: 'Tasks extension',
  spec: SPEC.extensionNegotiation,
  async run(context) {
    const client = context.client;
    if (!client) return notConnected(context);
    if (client.era !== 'modern') return skip('the tasks extension is defined for modern servers');
    const settings = client.serverCapabilities.extensions?.[TASKS_EXTENSION_ID];
    if (settings === undefined) return skip(`the server does not declare ${TASKS_EXTENSION_ID}`);
    const findings = new Findings();
    findings.expect(isRecord(settings), 'the extension settings are an object');
    const ask = (method: string, declared: boolean) =>
      client.request(
        method,
        { taskId: UNKNOWN_TASK },
        {
          timeoutMs: context.timeoutMs,
          ...(declared ? { extensions: { [TASKS_EXTENSION_ID]: {} } } : {}),
        },
      );
    await refused(
      findings,
      `${TASKS_METHODS.get} of an unknown task`,
      ask(TASKS_METHODS.get, true),
      [ErrorCode.InvalidParams],
    );
    await refused(
      findings,
      `${TASKS_METHODS.get} without the extension declared`,
      ask(TASKS_METHODS.get, false),
      [ErrorCode.MissingRequiredClientCapability],
      'warn',
    );
    for (const removed of ['tasks/result', 'tasks/list']) {
      await refused(
        findings,
        `${removed} (removed by SEP-2663)`,
        ask(removed, true),
        [ErrorCode.MethodNotFound],
        'warn',
      );
    }
    return findings.outcome();
  },
};

/** Expects `answer` to be a JSON-RPC error with one of `codes`. */
async function refused(
  findings: Findings,
  what: string,
  answer: Promise<unknown>,
  codes: readonly number[],
  level: 'warn' | 'fail' = 'fail',
): Promise<void> {
  try {
    await answer;
    findings.expect(false, `${what} → a result; expected error ${codes.join(' or ')}`, level);
  } catch (error) {
    if (!(error instanceof ProtocolError)) {
      findings.expect(false, `${what} → ${messageOf(error)}`, level);
      return;
    }
    findings.expect(
      codes.includes(error.code),
      `${what} → ${error.code}${codes.includes(error.code) ? '' : `; expected ${codes.join(' or ')}`}`,
      level,
    );
  }
}
