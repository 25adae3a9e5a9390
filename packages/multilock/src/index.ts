export { MultiLock } from './MultiLock.js';
export { HeldLockGroup, type LockGroupHold } from './HeldLockGroup.js';
export { LockGroupError, type MemberFailure } from './LockGroupError.js';
export { WaitBudget } from './WaitBudget.js';

// Building blocks for lock groups (the RedLock) in other packages.
export { LockGroup, memberOptions, type GroupAttempt, type MemberLock } from './LockGroup.js';
export { settleMembers, withTimeout } from './settleMembers.js';
export { pause } from '@deadbolt/core/kit';
