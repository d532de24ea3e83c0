/** The public shapes of the transport contract suite. */
import type { Transport } from '@twofold/protocol/experimental';
import type { TRANSPORT_CONTRACT_TESTS } from './test-names';

/**
 * The name of one contract test, as `skip` references it.
 *
 * @experimental
 */
export type TransportContractTest = (typeof TRANSPORT_CONTRACT_TESTS)[number];

/**
 * A linked client and server, not started: the suite installs its handlers and starts both
 * (server first). When the server runs in another process (e.g. a stdio child), leave `server`
 * out, set `remoteResponder: true`, and run `createContractResponder` on the remote transport.
 *
 * @experimental
 */
export type ContractPair =
  | { client: Transport; server: Transport; dispose?: () => Promise<void> }
  | { client: Transport; server?: undefined; remoteResponder: true; dispose?: () => Promise<void> };

/**
 * Contract tests a transport does not support, and why. The reason is required and shows in
 * the test report.
 *
 * @experimental
 */
export interface ContractSkip {
  /** Why these tests do not apply (non-empty). */
  reason: string;
  /** Names from `TRANSPORT_CONTRACT_TESTS`; an unknown name throws at registration. */
  tests: readonly TransportContractTest[];
}

/**
 * Options of `runTransportContract`.
 *
 * @experimental
 */
export interface TransportContractOptions {
  /** The `describe` block's name, e.g. the transport's name. */
  name: string;
  /** Creates a fresh pair for each test (possibly async). */
  createPair: () => ContractPair | Promise<ContractPair>;
  /** Tests to skip, each group with its reason. */
  skip?: readonly ContractSkip[];
  /**
   * How long the suite waits for any one event (a response, a close) before failing with a
   * message naming it. Each test may take up to three times this. Default 10 000 ms.
   */
  timeoutMs?: number;
}
