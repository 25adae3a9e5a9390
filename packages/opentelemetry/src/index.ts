export {
  instrumentLockClient,
  type LockInstrumentation,
  type LockInstrumentationOptions,
} from './instrumentLockClient.js';
export { INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION } from './scope.js';
export { LOCK_METRICS } from './LockMetrics.js';
export {
  ATTR_LOCK_KIND,
  ATTR_LOCK_LOSS_REASON,
  ATTR_LOCK_NAME,
  ATTR_LOCK_OUTCOME,
  type AcquisitionOutcome,
  type LossReason,
} from './attributes.js';
export type { LockNamePolicy } from './lockNames.js';
