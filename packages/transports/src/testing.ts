/**
 * `@twofold/transports/testing` (Node only, for test code): the transport contract suite, which
 * every built-in transport runs and third-party transports can run too. It imports `vitest`
 * (an optional peer dependency). Every export here is experimental.
 *
 * @packageDocumentation
 */
export {
  type ContractReport,
  type ContractResponder,
  createContractResponder,
} from './testing/responder';
export { runTransportContract } from './testing/run-contract';
export { TRANSPORT_CONTRACT_TESTS } from './testing/test-names';
export type {
  ContractPair,
  ContractSkip,
  TransportContractOptions,
  TransportContractTest,
} from './testing/types';
