// Never more holders than permits, through faults (issue 18): 4 worker processes × 3 tasks take 1
// or 2 permits of a semaphore of 4 and give them back, over and over, while their subscriber
// connections are killed and a worker is SIGKILLed holding permits (an operator then gives back
// what it held: a semaphore has no lease), directly and through the fault proxy with random
// latency. Every grant's interval (acquire reply → release sent) is rebuilt from the workers'
// events: no moment may have more than 4 permits held. The test process reads the available
// permits throughout (always in 0..4), and at the end every permit is back: the killed worker
// kept exactly what it held. PermitExpirableSemaphore runs too (see LEASED_SHAPE below): its
// killed holder's permits come back by their lease.
//
// The proxied runs also partition the proxy, reset its connections and cut a request after Redis
// ran it: ioredis re-sends the request, node-redis fails it although it ran. Each Semaphore
// request carries a request id and counts once, a PermitExpirableSemaphore acquisition its permit
// ids and its release a latch, and an acquisition that failed is given back by its id, so none
// lets a holder too many in, leaks permits, or tells a holder its permits were lost when a
// re-sent release found them already given back.
//
// Late copies (issue 30), through the proxy: the workers' commandTimeout is 500 ms; a script call
// on the semaphore (an acquisition, a release, addPermits, a renewal) is held and a copy of it
// delivered later than 2 × commandTimeout on its old connection, and another is cut and the
// network partitioned for longer than its records live (1.7 s: ioredis re-sends it after that).
// A Semaphore's release of unknown outcome is sent again until it comes back (it gives back only
// what is still held), and at the end its ledger must balance exactly: the permits available
// plus those its holds hash marks as held are the permits it was given, none lost or invented.
import { describePermitHammer } from '../src/semaphore/describePermitHammer.js';
import {
  cutLockRequest,
  cutLockRequestThenPartitionLong,
  deliverLockRequestLate,
  partitionProxies,
  resetProxies,
} from '../src/faults/proxyFaults.js';
import { killPermitHolder, killPermitSubscribers, permitFault } from '../src/semaphore/permitFaults.js';
import { PERMIT_KINDS } from '../src/semaphore/permitKinds.js';
import type { PermitHammerShape } from '../src/semaphore/runPermitHammer.js';

const SHAPE = {
  permits: 4,
  processes: 4,
  tasks: 3,
  holdsPerTask: 8,
  maxPermits: 2,
  workMs: 3,
} as const satisfies PermitHammerShape;
// Every request pays the latency: fewer grants, so that the file stays within its time. A 500 ms
// commandTimeout, so that a partition past a request's records (3 × it) fits the run.
const PROXY_SHAPE = { ...SHAPE, holdsPerTask: 5, commandTimeout: 500 } as const satisfies PermitHammerShape;

// PermitExpirableSemaphore: the same workers and faults, on a semaphore whose permits have
// leases. The workers' clients have a 1 s watchdogTimeout; every third grant takes a fixed 60 ms
// lease instead, and every other one of those holds on until its holder is told the lease ended
// (its signal aborts), and 20 ms more. A grant's interval ends no later than its lease, so the
// history checks that nobody got a permit before its lease had ended. Nobody gives the killed
// worker's permits back: once its leases ended, every permit is back, and none is left in
// `{name}:timeout`. Every grant that outlived its lease was told by the lease's end (within a
// timer's lateness), and its release gave nothing back a second time. Fewer grants, and no
// direct standalone run (the proxied one is standalone): each run also waits for the killed
// worker's last lease to end.
const LEASED_SHAPE = { ...SHAPE, holdsPerTask: 5 } as const satisfies PermitHammerShape;
const LEASED_TITLE =
  'never more than N permits held, leases end and are told, every permit back after the killed holder’s leases';

for (const kind of PERMIT_KINDS) {
  for (const topology of kind.leased ? (['cluster'] as const) : (['standalone', 'cluster'] as const)) {
    describePermitHammer(import.meta.url, {
      title: kind.leased
        ? `${LEASED_TITLE}, through subscriber kills`
        : 'never more than N permits held, and the end count adds up, through subscriber kills and a holder killed',
      kind,
      topology,
      backendOptions: topology === 'cluster' ? {} : { dedicated: true },
      shape: kind.leased ? LEASED_SHAPE : SHAPE,
      faults: [killPermitSubscribers, killPermitHolder, killPermitSubscribers],
    });
  }
  describePermitHammer(import.meta.url, {
    title: kind.leased
      ? `${LEASED_TITLE}, through a slow network and subscriber kills`
      : 'never more than N permits held, and the end count adds up, through a slow network, subscriber kills and a holder killed',
    kind,
    topology: 'standalone',
    backendOptions: { dedicated: true },
    shape: PROXY_SHAPE,
    proxied: { latency: { ms: 1, jitterMs: 5 } },
    faults: [
      killPermitSubscribers,
      permitFault(deliverLockRequestLate),
      permitFault(partitionProxies),
      killPermitHolder,
      permitFault(cutLockRequest),
      permitFault(resetProxies),
      permitFault(cutLockRequestThenPartitionLong),
      killPermitSubscribers,
    ],
  });
}
