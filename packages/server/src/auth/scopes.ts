/**
 * Which scopes a request needs: the endpoint's own, plus those of the item it names (the tool
 * called, the prompt got, the resource read or subscribed to, the reference completed). Both eras
 * name items the same way in their params, so one reading serves both.
 */
import type { JsonRpcRequest } from '@twofold/protocol/experimental';
import type { Operations, ScopeTarget } from '../operations/types';

/** The items a request acts on, read from its (not yet validated) params. */
function targetsOf(request: JsonRpcRequest): ScopeTarget[] {
  const params = request.params ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  switch (request.method) {
    case 'tools/call':
    case 'prompts/get': {
      const name = text(params.name);
      const kind = request.method === 'tools/call' ? 'tool' : 'prompt';
      return name === undefined ? [] : [{ kind, name }];
    }
    case 'resources/read':
    case 'resources/subscribe': {
      const uri = text(params.uri);
      return uri === undefined ? [] : [{ kind: 'resource', uri }];
    }
    case 'completion/complete':
      return completionTargets(params.ref);
    case 'subscriptions/listen': {
      // A listen asks for updates of resources: each one's scopes, as a subscribe would.
      const filter = params.notifications as { resourceSubscriptions?: unknown } | undefined;
      const uris = Array.isArray(filter?.resourceSubscriptions) ? filter.resourceSubscriptions : [];
      return uris.flatMap((uri) => (typeof uri === 'string' ? [{ kind: 'resource', uri }] : []));
    }
    default:
      return [];
  }
}

/** A completion names a prompt, or a template by its text (else a static resource's URI). */
function completionTargets(ref: unknown): ScopeTarget[] {
  if (typeof ref !== 'object' || ref === null) return [];
  const { type, name, uri } = ref as { type?: unknown; name?: unknown; uri?: unknown };
  if (type === 'ref/prompt' && typeof name === 'string') return [{ kind: 'prompt', name }];
  if (type === 'ref/resource' && typeof uri === 'string') {
    return [
      { kind: 'resourceTemplate', uriTemplate: uri },
      { kind: 'resource', uri },
    ];
  }
  return [];
}

/**
 * Every scope `request` needs, the endpoint's first, without duplicates. A completion reference
 * that names a template uses the template's scopes only (as the completion does).
 */
export function scopesNeeded(
  operations: Operations,
  request: JsonRpcRequest,
  endpointScopes: readonly string[],
): readonly string[] {
  const lookup = operations.requiredScopes?.bind(operations);
  if (lookup === undefined) return endpointScopes;
  const needed = new Set(endpointScopes);
  const targets = targetsOf(request);
  const isCompletion = request.method === 'completion/complete';
  for (const target of targets) {
    const scopes = lookup(target);
    if (scopes === undefined) continue;
    for (const scope of scopes) needed.add(scope);
    // The first known item of a completion reference is the one it completes.
    if (isCompletion) break;
  }
  return needed.size === endpointScopes.length ? endpointScopes : [...needed];
}
