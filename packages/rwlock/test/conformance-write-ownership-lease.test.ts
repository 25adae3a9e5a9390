import { describeLockConformance } from '@deadbolt/conformance';
import { READ_WRITE_LOCK, subjectOf } from '@deadbolt/conformance/kinds';

describeLockConformance(subjectOf(READ_WRITE_LOCK, 'write'), [
  'reentrancy',
  'sharedHolds',
  'lease',
  'events',
  'faults',
]);
