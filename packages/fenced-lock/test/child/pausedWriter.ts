// A fenced-lock holder that gets paused. It takes the lock with a short fixed lease, writes to the
// fenced storage and prints `acquired <token> <accepted>`; then, on the line `write` (which the
// test sends while the process is stopped), writes again with the same token, as a holder does
// that never noticed its pause, and prints what happened as JSON.
import { createInterface } from 'node:readline';
import { startChildSession, type ChildJob } from '@deadbolt/conformance/connect';
import { FencedLock } from '@deadbolt/fenced-lock';
import { FencedStorage } from '../../../../examples/src/FencedStorage.js';

interface PausedWriterJob extends ChildJob {
  lockName: string;
  resource: string;
  leaseTime: number;
}

const { job, executor, client, close } = await startChildSession<PausedWriterJob>('DEADBOLT_FENCED_JOB');
const storage = new FencedStorage(executor);
const held = await new FencedLock(client, job.lockName).acquire({ leaseTime: job.leaseTime });
process.stdout.write(
  `acquired ${held.token} ${await storage.write(job.resource, 'child before the pause', held.token)}\n`,
);

for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'write') continue;
  const accepted = await storage.write(job.resource, 'child after the pause', held.token);
  const aborted = held.signal.aborted;
  const release = await held.release().then(
    () => 'released',
    (error: Error) => error.name,
  );
  process.stdout.write(`${JSON.stringify({ accepted, aborted, release })}\n`);
  break;
}
await close();
