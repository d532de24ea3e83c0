/**
 * What a subscription asked for, what the server honours of it, and which changes reach it.
 */
import {
  createNotification,
  type JsonRpcNotification,
  META_KEYS,
  type RequestId,
  type ServerCapabilities,
  type SubscriptionFilter,
} from '@twofold/protocol/experimental';
import type { Change } from '../operations/types';

const LIST_FLAGS = [
  ['toolsListChanged', 'tools'],
  ['promptsListChanged', 'prompts'],
  ['resourcesListChanged', 'resources'],
] as const;

/**
 * The subset of `requested` the server honours: a list-changed type only for a list the server
 * has (its capability says `listChanged`), resource subscriptions only when it offers
 * `resources.subscribe`. A flag set to `false` is no subscription and is left out.
 */
export function honouredFilter(
  requested: SubscriptionFilter,
  capabilities: ServerCapabilities,
): SubscriptionFilter {
  const honoured: SubscriptionFilter = {};
  for (const [flag, kind] of LIST_FLAGS) {
    if (requested[flag] === true && capabilities[kind]?.listChanged === true) honoured[flag] = true;
  }
  if (requested.resourceSubscriptions !== undefined && capabilities.resources?.subscribe === true) {
    honoured.resourceSubscriptions = [...requested.resourceSubscriptions];
  }
  return honoured;
}

/**
 * Whether an update of `changed` concerns the subscribed `uri`: the same URI, or a sub-resource
 * of it (a path below it, at a `/` boundary: `file:///a/b` is below `file:///a` and
 * `file:///a/`, `file:///ab` is not). The spec lets the updated URI be a sub-resource.
 */
export function concernsResource(subscribed: string, changed: string): boolean {
  if (changed === subscribed) return true;
  const base = subscribed.endsWith('/') ? subscribed : `${subscribed}/`;
  return changed.startsWith(base);
}

/** The notification `change` gives on a subscription with filter `honoured`, if any. */
export function notificationFor(
  change: Change,
  honoured: SubscriptionFilter,
  subscriptionId: RequestId,
): JsonRpcNotification | undefined {
  const _meta = { [META_KEYS.subscriptionId]: subscriptionId };
  if (change.kind === 'resource-updated') {
    const uris = honoured.resourceSubscriptions ?? [];
    if (!uris.some((uri) => concernsResource(uri, change.uri))) return undefined;
    return createNotification('notifications/resources/updated', { _meta, uri: change.uri });
  }
  const flag = LIST_FLAGS.find(([, kind]) => kind === change.kind)?.[0];
  if (flag === undefined || honoured[flag] !== true) return undefined;
  return createNotification(`notifications/${change.kind}/list_changed`, { _meta });
}

/** The acknowledgement, the first message of every subscription. */
export function acknowledgement(
  honoured: SubscriptionFilter,
  subscriptionId: RequestId,
): JsonRpcNotification {
  return createNotification('notifications/subscriptions/acknowledged', {
    _meta: { [META_KEYS.subscriptionId]: subscriptionId },
    notifications: honoured,
  });
}
