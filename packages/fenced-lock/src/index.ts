export { FencedLock, fencedLockKind } from './FencedLock.js';
export { FencedHeldLock } from './FencedHeldLock.js';
export { fencingTokenKey } from './fencingTokenKey.js';
