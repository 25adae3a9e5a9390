// One process of the contended-handoff scenario: `tasks` tasks take one lock in turn with a
// near-zero hold until the process has made `acquisitions` acquisitions, recording on the
// machine's shared clock when each was acquired and when its release was sent.
import { LockClient } from '@deadbolt/core';
import { connectExecutor, type ConnectionSpec } from '@deadbolt/conformance';
import { sharedNow } from './stats.js';

interface HandoffJob {
  spec: ConnectionSpec;
  lockName: string;
  tasks: number;
  acquisitions: number;
  startAt: number;
}

const job = JSON.parse(process.env.DEADBOLT_BENCH_JOB ?? '') as HandoffJob;
const { executor, close } = await connectExecutor(job.spec);
const client = new LockClient(executor);
const lock = client.lock(job.lockName);
await lock.isLocked(); // connect and load the scripts before the clock starts

const holds: [acquired: number, released: number][] = [];
let left = job.acquisitions;
await new Promise((resolve) => setTimeout(resolve, Math.max(0, job.startAt - sharedNow())));
await Promise.all(
  Array.from({ length: job.tasks }, async () => {
    while (left-- > 0) {
      const held = await lock.acquire();
      const acquired = sharedNow();
      const released = sharedNow();
      await held.release();
      holds.push([acquired, released]);
    }
  }),
);
await client.close();
await close();
process.stdout.write(`${JSON.stringify(holds)}\n`);
