/**
 * `--verbose`: every message to and from the server on stderr, one line each, with values of
 * secret-named fields and credentials masked (./mask). The target is wrapped, so the trace shows
 * exactly what the client sends and receives, probes and retries included. HTTP headers
 * (`Authorization` among them) are never shown here; OAuth requests have their own trace.
 */
import type { HttpTransportRequest, ServerTarget } from '@twofold/client/experimental';
import type { JsonRpcMessage, Transport } from '@twofold/protocol/experimental';
import { maskedJsonValue } from './redact';

/** `target`, with each transport it opens traced to `write`. */
export function tracedTarget(target: ServerTarget, write: (line: string) => void): ServerTarget {
  let opened = 0;
  const wrap = (transport: Transport) => traced(transport, ++opened, write);
  if (target.kind === 'stream') return { ...target, open: () => wrap(target.open()) };
  return {
    ...target,
    open: (request: HttpTransportRequest) => {
      write(
        `# connection ${opened + 1}: ${request.kind}${request.protocolVersion ? ` ${request.protocolVersion}` : ''}`,
      );
      return wrap(target.open(request));
    },
  };
}

/** A proxy of `transport` that reports what passes through it. */
function traced(transport: Transport, n: number, write: (line: string) => void): Transport {
  const show = (arrow: string, message: JsonRpcMessage) =>
    write(`${arrow}${n} ${JSON.stringify(message, maskedJsonValue)}`);
  return new Proxy(transport, {
    get(inner, property) {
      if (property === 'send') {
        return (message: JsonRpcMessage, options?: Parameters<Transport['send']>[1]) => {
          show('→', message);
          return inner.send(message, options);
        };
      }
      const value = Reflect.get(inner, property, inner);
      return typeof value === 'function' ? value.bind(inner) : value;
    },
    set(inner, property, value) {
      if (property === 'onmessage' && typeof value === 'function') {
        const receive = value as NonNullable<Transport['onmessage']>;
        inner.onmessage = (message, context) => {
          show('←', message);
          receive(message, context);
        };
        return true;
      }
      return Reflect.set(inner, property, value, inner);
    },
  });
}
