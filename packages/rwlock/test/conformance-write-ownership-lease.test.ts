import { describeLockConformance } from '@deadbolt/conformance';
import { writeLock } from './rwlockKinds.js';

describeLockConformance(writeLock, ['reentrancy', 'lease', 'faults']);
