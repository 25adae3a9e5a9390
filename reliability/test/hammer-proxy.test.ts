// Overlap and lost-update check through the network: 4 worker processes × 2 tasks per lock hammer
// one lock of each kind on a standalone server, connected through the harness's fault proxy, with
// random latency on every chunk (1-6 ms each way), while script calls on the locks are cut after
// Redis ran them (ioredis re-sends them, node-redis fails them and the worker retries), the
// network is partitioned for 400 ms, and every connection is reset at once.
//
// Late copies (issue 30): the workers' commandTimeout is 500 ms, so that a request's deadline and
// records (3 × commandTimeout) end within the run. A script call is held and a copy of it
// delivered later than 2 × commandTimeout on its old connection (it ran once already: every
// driver gets the late copy), and a script call is cut and the network partitioned for 1.7 s
// (longer than its records), so that ioredis re-sends it after every record is gone. Holders may
// lose their locks during that partition, if they are told; releases whose outcome was unknown
// may find their lock gone afterwards. No overlap, no lost update, all the same.
import {
  cutLockRequest,
  cutLockRequestThenPartitionLong,
  deliverLockRequestLate,
  partitionProxies,
  resetProxies,
} from '../src/faults/proxyFaults.js';
import { describeHammer } from '../src/hammer/describeHammer.js';
import type { HammerShape } from '../src/hammer/hammerShape.js';
import { subjectsOn } from '../src/kinds.js';

// Smaller than HAMMER_SHAPE: every request pays the latency, and the file stays within a minute
// and a half. A 500 ms commandTimeout: well above the latency, and short enough that a partition
// past a request's records (1.7 s) fits the run; the 3 s lease stays (renewed every second, given
// up a second before it ends: a renewal timed out at 500 ms is tried again in time).
const PROXY_SHAPE = {
  processes: 4,
  tasksPerSubject: 2,
  holdsPerTask: 6,
  workMs: 2,
  watchdogTimeout: 3_000,
  commandTimeout: 500,
} as const satisfies HammerShape;

describeHammer(import.meta.url, {
  title: 'no two owners hold a lock at once and no update is lost through cut requests, partitions and resets',
  topology: 'standalone',
  backendOptions: { dedicated: true },
  shape: PROXY_SHAPE,
  proxied: { latency: { ms: 1, jitterMs: 5 } },
  subjects: subjectsOn('standalone'),
  faults: [
    cutLockRequest,
    deliverLockRequestLate,
    partitionProxies,
    cutLockRequest,
    resetProxies,
    cutLockRequestThenPartitionLong,
    cutLockRequest,
    deliverLockRequestLate,
    resetProxies,
    cutLockRequest,
    cutLockRequestThenPartitionLong,
    partitionProxies,
    cutLockRequest,
  ],
});
