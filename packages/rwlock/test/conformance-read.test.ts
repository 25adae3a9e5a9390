// The read lock is shared: the 'exclusion' and 'waiting' suites test one owner keeping another
// out, which readers never do, so they are not run (readWrite.test.ts covers readers waiting for
// a writer); within 'reentrancy' and 'lease' the suite skips the tests of that kind itself.
import { describeLockConformance } from '@deadbolt/conformance';
import { READ_WRITE_LOCK, subjectOf } from '@deadbolt/conformance/kinds';

describeLockConformance(subjectOf(READ_WRITE_LOCK, 'read'), ['reentrancy', 'sharedHolds', 'lease', 'events', 'faults']);
