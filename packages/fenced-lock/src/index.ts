export { FencedLock, fencedLockKind } from './FencedLock.js';
export { FencedHeldLock } from './FencedHeldLock.js';
export { FENCED_LOCK_KEY_LAYOUT, fencingTokenKey } from './fencingTokenKey.js';
