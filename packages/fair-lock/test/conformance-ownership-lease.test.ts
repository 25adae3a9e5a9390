import { describeLockConformance } from '@deadbolt/conformance';
import { fairLock } from './fairLockKind.js';

describeLockConformance(fairLock, ['reentrancy', 'sharedHolds', 'lease', 'faults']);
