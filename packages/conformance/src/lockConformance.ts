import { describe } from 'vitest';
import { BACKENDS } from './backends/index.js';
import type { LockSubject, SingleLockKind } from './kinds/index.js';
import { useSuiteContext, type SuiteContext } from './SuiteContext.js';
import { eventsSuite } from './suites/events.js';
import { exclusionSuite } from './suites/exclusion.js';
import { faultSuite } from './suites/faults.js';
import { leaseSuite } from './suites/lease.js';
import { localHandoffSuite } from './suites/localHandoff.js';
import { reentrancySuite } from './suites/reentrancy.js';
import { sharedHoldsSuite } from './suites/sharedHolds.js';
import { waitingSuite } from './suites/waiting.js';

/** The parts of the conformance suite; a test file may run some of them to stay short. */
export const LOCK_SUITES = {
  exclusion: exclusionSuite,
  reentrancy: reentrancySuite,
  sharedHolds: sharedHoldsSuite,
  lease: leaseSuite,
  waiting: waitingSuite,
  localHandoff: localHandoffSuite,
  events: eventsSuite,
  faults: faultSuite,
} as const satisfies Record<string, (ctx: SuiteContext) => void>;

/** A part of the conformance suite. */
export type LockSuiteName = keyof typeof LOCK_SUITES;

/**
 * The one conformance suite every single-lock kind passes in each of its roles, on both adapters,
 * standalone and cluster. Each adapter × topology gets its own servers.
 */
export function describeLockConformance(
  subject: LockSubject<SingleLockKind>,
  suites: readonly LockSuiteName[] = Object.keys(LOCK_SUITES) as LockSuiteName[],
): void {
  describe.each(BACKENDS)(`${subject.label} conformance on $adapter/$topology`, ({ adapter, topology }) => {
    // Fault injection needs servers of its own, never a REDIS_URL server.
    const ctx = useSuiteContext(subject, adapter, topology, { dedicated: suites.includes('faults') });
    for (const suite of suites) describe(suite, () => LOCK_SUITES[suite](ctx));
  });
}
