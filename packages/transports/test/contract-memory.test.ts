import { createInMemoryPair } from '../src/memory/in-memory-pair';
import { runTransportContract } from '../src/testing';

runTransportContract({
  name: 'in-memory pair',
  createPair: () => {
    const [client, server] = createInMemoryPair();
    return { client, server };
  },
});
