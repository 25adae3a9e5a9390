// The overlap and lost-update check for MultiLock (a Lock and a FairLock under two names, one
// group), on both adapters: on a standalone server SIGKILLed and restarted from its append-only
// file, and on a cluster whose locks' master fails over to its replica, while subscriber
// connections are killed and workers are frozen within their lease and killed mid-hold.
import { MULTI_LOCK } from '@deadbolt/conformance/kinds';
import {
  failOverLockMaster,
  killHolder,
  killWorkerSubscribers,
  pauseHolder,
  restartServerWithData,
} from '../src/faults/hammerFaults.js';
import { describeHammer } from '../src/hammer/describeHammer.js';
import { HAMMER_ON, SHORT_PAUSE_MS } from '../src/hammer/hammerShape.js';
import { groupSubjectsOn } from '../src/kinds.js';

const freeze = pauseHolder(SHORT_PAUSE_MS, 'process SIGSTOP within lease');
const multiLock = (topology: 'standalone' | 'cluster') =>
  groupSubjectsOn(topology).filter(({ kind }) => kind.id === MULTI_LOCK.id);

describeHammer(import.meta.url, {
  title: 'no two owners hold the group at once and no update is lost through process, connection and server faults',
  ...HAMMER_ON.standalone,
  subjects: multiLock('standalone'),
  faults: [killWorkerSubscribers, freeze, restartServerWithData, killHolder, freeze],
});

// The failover comes last: a run of one lock is short, and it may outlast what is left of it.
describeHammer(import.meta.url, {
  title: 'no two owners hold the group at once and no update is lost through process, connection and failover faults',
  ...HAMMER_ON.cluster,
  subjects: multiLock('cluster'),
  faults: [killWorkerSubscribers, freeze, killHolder, freeze, failOverLockMaster],
});
