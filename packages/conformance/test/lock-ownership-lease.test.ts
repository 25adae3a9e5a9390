import { describeLockConformance } from '../src/lockConformance.js';
import { plainLock } from '../src/LockKind.js';

describeLockConformance(plainLock, ['reentrancy', 'sharedHolds', 'lease', 'faults']);
