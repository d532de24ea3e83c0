import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runTransportContract } from '../src/testing';
import { MessagePortTransport } from './examples/message-port-transport';

runTransportContract({
  name: 'MessagePort example transport',
  createPair: () => {
    const { port1, port2 } = new MessageChannel();
    return { client: new MessagePortTransport(port1), server: new MessagePortTransport(port2) };
  },
});

describe('MessagePort example', () => {
  it('is included verbatim in docs/transports.md', () => {
    const source = readFileSync(
      new URL('./examples/message-port-transport.ts', import.meta.url),
      'utf8',
    );
    const doc = readFileSync(new URL('../../../docs/transports.md', import.meta.url), 'utf8');
    expect(doc).toContain(source.trimEnd());
  });
});
