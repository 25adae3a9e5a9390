// The registry of lock kinds that the conformance suite, the reliability suite and the benchmark
// read: which kinds there are and how a lock of each is built. A new kind is one entry in
// singleLockKinds.ts or lockGroupKinds.ts.
//
// The kinds' packages are devDependencies of the workspace root, not of this package: each of them
// tests with this suite (its devDependency), and a dependency both ways is a cycle, which
// pnpm-workspace.yaml forbids. Node finds them in the root's node_modules.
export type { AcquirableLock, ConformantLock, LockHold } from './builtLocks.js';
export { SHORT_WAITER_TIMEOUT, type KindSettings } from './KindSettings.js';
export { kindById } from './kindById.js';
export type { LocalHandoffRole, RegisteredKind, SingleLockKind, WaiterChannels } from './RegisteredKind.js';
export { exclusiveRole, type KindWithRoles, type LockRole, type RoleName } from './LockRole.js';
export { LOCK_GROUP_KINDS, MULTI_LOCK, RED_LOCK } from './lockGroupKinds.js';
export { subjectOf, subjectsOf, type LockSubject } from './LockSubject.js';
export { FAIR_LOCK, FENCED_LOCK, LOCK, READ_WRITE_LOCK, SINGLE_LOCK_KINDS, SPIN_LOCK } from './singleLockKinds.js';
export { waitersWaiting, wakesByPubSub } from './waitersWaiting.js';
