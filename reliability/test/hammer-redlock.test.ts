// The overlap and lost-update check for RedLock over 3 independent servers, on both adapters: one
// client per server in every worker, one server SIGKILLed and restarted empty midway (the holders
// keep their quorum on the other two), workers frozen within their lease and killed mid-hold.
// RedLock waits by polling, not by subscribing, so no subscriber connection is there to kill.
import { RED_LOCK } from '@deadbolt/conformance/kinds';
import { killHolder, pauseHolder, restartRedLockNodeEmpty } from '../src/faults/hammerFaults.js';
import { describeHammer } from '../src/hammer/describeHammer.js';
import { HAMMER_SHAPE, SHORT_PAUSE_MS } from '../src/hammer/hammerShape.js';
import { groupSubjectsOn, REDLOCK_DEPLOYMENTS } from '../src/kinds.js';

const freeze = pauseHolder(SHORT_PAUSE_MS, 'process SIGSTOP within lease');

describeHammer(import.meta.url, {
  title: `no two owners hold a quorum of ${REDLOCK_DEPLOYMENTS} servers at once and no update is lost through a server restarted empty and process faults`,
  topology: 'standalone',
  backendOptions: { dedicated: true },
  deployments: REDLOCK_DEPLOYMENTS,
  subjects: groupSubjectsOn('standalone').filter(({ kind }) => kind.id === RED_LOCK.id),
  shape: HAMMER_SHAPE,
  faults: [freeze, restartRedLockNodeEmpty, killHolder, freeze],
});
