// Overlap and lost-update check through the network: 4 worker processes × 2 tasks per lock hammer
// one lock of each kind on a standalone server, connected through the harness's fault proxy, with
// random latency on every chunk (1-6 ms each way), while script calls on the locks are cut after
// Redis ran them (ioredis re-sends them, node-redis fails them and the worker retries), the
// network is partitioned for 400 ms, and every connection is reset at once.
import { cutLockRequest, partitionProxies, resetProxies } from '../src/faults/proxyFaults.js';
import { describeHammer } from '../src/hammer/describeHammer.js';
import type { HammerShape } from '../src/hammer/hammerShape.js';
import { subjectsOn } from '../src/kinds.js';

// Smaller than HAMMER_SHAPE: every request pays the latency, and the file stays within a minute.
const PROXY_SHAPE = { processes: 4, tasksPerSubject: 2, holdsPerTask: 5, workMs: 2, watchdogTimeout: 3_000 } as const satisfies HammerShape;

describeHammer(import.meta.url, {
  title: 'no two owners hold a lock at once and no update is lost through cut requests, partitions and resets',
  topology: 'standalone',
  backendOptions: { dedicated: true },
  shape: PROXY_SHAPE,
  proxied: { latency: { ms: 1, jitterMs: 5 } },
  subjects: subjectsOn('standalone'),
  faults: [cutLockRequest, partitionProxies, cutLockRequest, resetProxies, cutLockRequest, partitionProxies, cutLockRequest, resetProxies, cutLockRequest],
});
