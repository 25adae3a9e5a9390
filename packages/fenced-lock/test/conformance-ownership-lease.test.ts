import { describeLockConformance } from '@deadbolt/conformance';
import { FENCED_LOCK, subjectOf } from '@deadbolt/conformance/kinds';

describeLockConformance(subjectOf(FENCED_LOCK), ['reentrancy', 'sharedHolds', 'lease', 'events', 'faults']);
