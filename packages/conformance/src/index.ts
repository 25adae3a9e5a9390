export * from './connect.js';
export { describeLockConformance, LOCK_SUITES, type LockSuiteName } from './lockConformance.js';
export { plainLock, type ConformantLock, type LockKind } from './LockKind.js';
export { useSuiteContext, type SuiteContext } from './SuiteContext.js';
export { eventually, sleep } from './timing.js';
