/** Registers the contract tests with vitest, and runs one of them on its own. */
import { describe, it } from 'vitest';
import { type ContractTestBody, deliveryTests } from './delivery-tests';
import { ContractHarness } from './harness';
import { lifecycleTests, startRules } from './lifecycle-tests';
import { TRANSPORT_CONTRACT_TESTS } from './test-names';
import type {
  ContractPair,
  ContractSkip,
  TransportContractOptions,
  TransportContractTest,
} from './types';

const DEFAULT_TIMEOUT_MS = 10_000;
/** A whole contract test may take this many single-wait bounds. */
const TEST_TIMEOUT_BOUNDS = 30;

const bodies: Record<TransportContractTest, ContractTestBody> = {
  'enforces the start() rules': startRules,
  ...deliveryTests,
  ...lifecycleTests,
};
/** Tests that start the pair themselves, because they check what happens before start(). */
const startsItself: ReadonlySet<TransportContractTest> = new Set(['enforces the start() rules']);

/** A contract test as it will be registered: run, or skipped with its reason. */
export interface PlannedContractTest {
  name: TransportContractTest;
  skipReason?: string;
}

/** Validates `skip` and lists every contract test with its skip reason, if any. */
export function planTransportContract(skip: readonly ContractSkip[] = []): PlannedContractTest[] {
  const reasons = new Map<string, string>();
  for (const entry of skip) {
    if (typeof entry.reason !== 'string' || entry.reason.trim() === '') {
      throw new Error(
        `runTransportContract: a skip entry needs a reason (tests: ${entry.tests.join(', ')})`,
      );
    }
    if (entry.tests.length === 0) {
      throw new Error(`runTransportContract: the skip entry "${entry.reason}" names no test`);
    }
    for (const name of entry.tests) {
      if (!(TRANSPORT_CONTRACT_TESTS as readonly string[]).includes(name)) {
        throw new Error(
          `runTransportContract: skip names an unknown test "${name}"; known tests: ${TRANSPORT_CONTRACT_TESTS.join('; ')}`,
        );
      }
      reasons.set(name, entry.reason.trim());
    }
  }
  return TRANSPORT_CONTRACT_TESTS.map((name) => {
    const skipReason = reasons.get(name);
    return skipReason === undefined ? { name } : { name, skipReason };
  });
}

/**
 * Runs one contract test on a fresh pair: opens it, runs the test, closes both sides, then
 * checks the invariants that hold after every test. Rejects when the transport breaks the
 * contract.
 */
export async function runContractTest(
  name: TransportContractTest,
  createPair: () => ContractPair | Promise<ContractPair>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<void> {
  const harness = await ContractHarness.open(createPair, timeoutMs);
  try {
    if (!startsItself.has(name)) await harness.start();
    await bodies[name](harness);
  } catch (error) {
    // The test's own failure is the one to report; a teardown failure would only hide it.
    await harness.teardown().catch(() => {});
    const violations = harness.violations();
    if (error instanceof Error && violations.length > 0) {
      error.message += `\nThe transport also broke the contract:\n- ${violations.join('\n- ')}`;
    }
    throw error;
  }
  await harness.teardown();
  harness.assertInvariants();
}

/**
 * Registers the transport contract as one vitest `describe(name)` block with one test per
 * entry of `TRANSPORT_CONTRACT_TESTS`. Each test gets a fresh pair from `createPair`, and ends
 * by closing both sides, disposing of the pair, and checking the invariants: one `onclose` per
 * side and no callback after it, one response per request, and no process, pipe, socket or
 * message port left open (counted process-wide, so run the suite in a process of its own, as
 * vitest's default `forks` pool does). Throws at registration when a skip entry has no reason,
 * names no test, or names an unknown test.
 *
 * @example
 * ```ts
 * runTransportContract({
 *   name: 'my transport',
 *   createPair: () => {
 *     const [client, server] = createMyPair();
 *     return { client, server };
 *   },
 * });
 * ```
 *
 * @experimental
 */
export function runTransportContract(options: TransportContractOptions): void {
  const plan = planTransportContract(options.skip);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new Error(`runTransportContract: timeoutMs must be a positive number, got ${timeoutMs}`);
  }
  describe(options.name, () => {
    for (const { name, skipReason } of plan) {
      if (skipReason !== undefined) {
        it.skip(`${name} (skipped: ${skipReason})`, () => {});
      } else {
        // Every wait inside a test has its own bound (`timeoutMs`); this only stops a test whose
        // many waits, each in time, add up on a busy machine (hundreds of sends, 8 MiB echoes).
        it(name, { timeout: timeoutMs * TEST_TIMEOUT_BOUNDS }, () =>
          runContractTest(name, options.createPair, timeoutMs),
        );
      }
    }
  });
}
