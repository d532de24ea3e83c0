/** Every check, in the order the doctor runs them (and reports them). */
import type { CheckDefinition } from './define';
import { discoverShape, supportedVersions } from './discover';
import { eraDetection } from './era';
import { headerMismatch, originRejected } from './http';
import { legacyInitialize } from './legacy';
import { listOrder, pagination } from './lists';
import { notificationsUnanswered } from './notifications';
import { unsupportedVersion } from './probes';
import { cacheHints, resultType } from './results';
import { skillsExtension } from './skills';
import { tasksExtension } from './tasks';
import { toolHeaderAnnotations, toolNames } from './tools';

export type { CheckDefinition, CheckOutcome } from './define';

/** The checks in run order; their ids are the `--json` contract (see types.ts). */
export const CHECKS: readonly CheckDefinition[] = [
  eraDetection,
  supportedVersions,
  discoverShape,
  resultType,
  cacheHints,
  listOrder,
  pagination,
  toolNames,
  toolHeaderAnnotations,
  headerMismatch,
  originRejected,
  unsupportedVersion,
  notificationsUnanswered,
  legacyInitialize,
  skillsExtension,
  tasksExtension,
];
