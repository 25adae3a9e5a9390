import { describeLockConformance } from '@deadbolt/conformance';
import { SPIN_LOCK, subjectOf } from '@deadbolt/conformance/kinds';

describeLockConformance(subjectOf(SPIN_LOCK), ['reentrancy', 'sharedHolds', 'lease', 'events', 'faults']);
