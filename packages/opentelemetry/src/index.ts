export {
  instrumentLockClient,
  INSTRUMENTATION_SCOPE,
  type LockInstrumentation,
  type LockInstrumentationOptions,
} from './instrumentLockClient.js';
export { LOCK_METRICS } from './LockMetrics.js';
export { ATTR_LOCK_KIND, ATTR_LOCK_NAME, ATTR_LOCK_OUTCOME, type AcquisitionOutcome } from './attributes.js';
export type { LockNamePolicy } from './lockNames.js';
