// Overlap and lost-update check on a 3-master cluster with a replica each: 8 worker processes × 3
// tasks per lock hammer one lock of each kind (all in one slot) while their subscriber
// connections are killed, workers are frozen within their lease and killed mid-hold, and the
// locks' master is failed over to its replica.
import { failOverLockMaster, killHolder, killWorkerSubscribers, pauseHolder } from '../src/faults/hammerFaults.js';
import { describeHammer } from '../src/hammer/describeHammer.js';
import { HAMMER_ON, SHORT_PAUSE_MS } from '../src/hammer/hammerShape.js';
import { subjectsOn } from '../src/kinds.js';

const freeze = pauseHolder(SHORT_PAUSE_MS, 'process SIGSTOP within lease');

describeHammer(import.meta.url, {
  title: 'no two owners hold a lock at once and no update is lost through process, connection and failover faults',
  ...HAMMER_ON.cluster,
  // 10 holds a task rather than 6: the manual failover takes seconds, and a run quick enough had
  // ended before the faults after it were due (CI: no worker left to freeze).
  shape: { ...HAMMER_ON.cluster.shape, holdsPerTask: 10 },
  subjects: subjectsOn('cluster'),
  faults: [killWorkerSubscribers, freeze, failOverLockMaster, killHolder, freeze, killWorkerSubscribers],
});
