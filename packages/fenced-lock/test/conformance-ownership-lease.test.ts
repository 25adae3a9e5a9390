import { describeLockConformance } from '@deadbolt/conformance';
import { fencedLock } from './fencedLockKind.js';

describeLockConformance(fencedLock, ['reentrancy', 'sharedHolds', 'lease', 'faults']);
