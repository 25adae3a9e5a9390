import { describeLockConformance } from '../src/lockConformance.js';
import { LOCK, subjectOf } from '../src/kinds/index.js';

describeLockConformance(subjectOf(LOCK), ['reentrancy', 'sharedHolds', 'lease', 'events', 'faults']);
