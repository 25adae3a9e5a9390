import { describeLockConformance } from '@deadbolt/conformance';
import { FAIR_LOCK, subjectOf } from '@deadbolt/conformance/kinds';

describeLockConformance(subjectOf(FAIR_LOCK), ['reentrancy', 'sharedHolds', 'lease', 'events', 'faults']);
