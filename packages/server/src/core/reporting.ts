/**
 * Progress and log notifications of one request, shared by both eras: progress only when the
 * request carried a `progressToken`, logs only at or above the level the client asked for, and
 * nothing once the request has been answered or cancelled.
 */
import {
  createNotification,
  type JsonRpcNotification,
  LOGGING_LEVELS,
  type LoggingLevel,
  type ProgressToken,
} from '@twofold/protocol/experimental';
import type { RequestContext } from '../api';

/** Whether a message at `level` passes a threshold (`undefined`: the client asked for none). */
export function logLevelPasses(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return (
    threshold !== undefined && LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold)
  );
}

/** What a reporter needs to know about its request. */
export interface ReporterOptions {
  progressToken: ProgressToken | undefined;
  /** The current log threshold (per request on modern, per session on legacy). */
  logLevel: () => LoggingLevel | undefined;
  /** Whether the request may still send (not answered, not cancelled). */
  live: () => boolean;
  notify: (notification: JsonRpcNotification) => Promise<void>;
}

/** The `progress` and `log` functions of a handler's `RequestContext`. */
export type Reporter = Pick<RequestContext, 'progress' | 'log'>;

/** Makes the {@link Reporter} of one request. */
export function createReporter(options: ReporterOptions): Reporter {
  const { progressToken, logLevel, live, notify } = options;
  let last = Number.NEGATIVE_INFINITY;
  return {
    async progress(progress, total, message) {
      if (progressToken === undefined || !live()) return;
      // The spec requires progress to increase strictly; a handler breaking that is a bug.
      if (!(progress > last)) {
        throw new RangeError(`progress must increase: ${progress} after ${last}`);
      }
      last = progress;
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      await notify(createNotification('notifications/progress', params));
    },
    async log(level, data, logger) {
      if (!logLevelPasses(level, logLevel()) || !live()) return;
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params.logger = logger;
      await notify(createNotification('notifications/message', params));
    },
  };
}
