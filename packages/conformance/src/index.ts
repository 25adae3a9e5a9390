export * from './connect.js';
export { describeLockConformance, LOCK_SUITES, type LockSuiteName } from './lockConformance.js';
export { useBackendContext, useSuiteContext, type BackendContext, type SuiteContext } from './SuiteContext.js';
export { eventually, RENEWED_WATCHDOG_MS, sleep, waitersAsleep } from './timing.js';
export { publishCommandOf } from './publishCommandOf.js';
export { publishes } from './publishes.js';
export { countOverlaps, type Overlaps } from './overlaps.js';
export { unreachableExecutor, type UnreachableExecutor } from './unreachableExecutor.js';
export * from './redisson/index.js';
