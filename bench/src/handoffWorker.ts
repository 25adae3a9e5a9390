// One process of the contended-handoff scenario: `tasks` tasks take one lock of the given kind in
// turn with a near-zero hold until the process has made `acquisitions` acquisitions, recording
// on the machine's shared clock when each was asked for, acquired, and its release sent.
import { startChildSession, type ConnectionSpec } from '@deadbolt/conformance/connect';
import { FairLock } from '@deadbolt/fair-lock';
import type { HandoffKind, Hold } from './scenarios/handoff.js';
import { sharedNow } from './stats.js';

interface HandoffJob {
  spec: ConnectionSpec;
  kind: HandoffKind;
  lockName: string;
  tasks: number;
  acquisitions: number;
  startAt: number;
}

const { job, client, close } = await startChildSession<HandoffJob>('DEADBOLT_BENCH_JOB');
const lock = job.kind === 'FairLock' ? new FairLock(client, job.lockName) : client.lock(job.lockName);
await lock.isLocked(); // connect and load the scripts before the clock starts

const holds: Hold[] = [];
let left = job.acquisitions;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, job.startAt - sharedNow())));
await Promise.all(
  Array.from({ length: job.tasks }, async () => {
    while (left-- > 0) {
      const asked = sharedNow();
      const held = await lock.acquire();
      const acquired = sharedNow();
      const released = sharedNow();
      await held.release();
      holds.push([asked, acquired, released]);
    }
  }),
);
await close();
process.stdout.write(`${JSON.stringify(holds)}\n`);
