import { describeLockConformance } from '@deadbolt/conformance';
import { writeLock } from './rwlockKinds.js';

describeLockConformance(writeLock, ['reentrancy', 'sharedHolds', 'lease', 'faults']);
