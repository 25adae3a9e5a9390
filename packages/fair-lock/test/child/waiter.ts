// A process of fair-lock waiters for the cross-process tests, driven by lines on stdin:
// `wait <label>` starts an acquisition as owner <label>; once granted, it appends <label> to the
// order list (a Redis list), releases, and prints `granted <label>`. It prints `ready` once
// connected, and exits when stdin ends and every acquisition is done.
import { createInterface } from 'node:readline';
import { startChildSession, type ConnectionSpec } from '@deadbolt/conformance/connect';
import { FairLock } from '@deadbolt/fair-lock';

/** What the parent tells a waiter process, as JSON in DEADBOLT_FAIR_WAITER_JOB. */
export interface WaiterJob {
  spec: ConnectionSpec;
  lockName: string;
  orderKey: string;
  waiterTimeout: number;
}

const { job, executor, client, close } = await startChildSession<WaiterJob>('DEADBOLT_FAIR_WAITER_JOB');
const lock = new FairLock(client, job.lockName, { waiterTimeout: job.waiterTimeout });
await lock.isLocked(); // connect and load the scripts before saying ready

const waits: Promise<void>[] = [];
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [command, label] = line.trim().split(' ');
  if (command !== 'wait' || label === undefined) continue;
  waits.push(
    lock
      .withLock(() => executor.eval("return redis.call('rpush', KEYS[1], ARGV[1])", [job.orderKey], [label]), {
        owner: label,
      })
      .then(() => void process.stdout.write(`granted ${label}\n`)),
  );
}
await Promise.all(waits);
await close();
