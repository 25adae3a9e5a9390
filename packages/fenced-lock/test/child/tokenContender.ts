// A process contending for a fenced lock: `iterations` times it takes the lock, re-enters it, and
// while holding both appends both tokens to a Redis list, so the list is in hold order. Prints
// `done` when finished.
import { startChildSession, type ChildJob } from '@deadbolt/conformance/connect';
import { FencedLock } from '@deadbolt/fenced-lock';

interface ContenderJob extends ChildJob {
  lockName: string;
  listKey: string;
  iterations: number;
}

const { job, executor, client, close } = await startChildSession<ContenderJob>('DEADBOLT_FENCED_JOB');
const lock = new FencedLock(client, job.lockName);
for (let i = 0; i < job.iterations; i++) {
  await lock.withLock(async (_signal, outer) => {
    // Inside withLock, a nested acquisition re-enters as the same owner.
    await using inner = await lock.acquire();
    await executor.eval(
      "return redis.call('rpush', KEYS[1], ARGV[1], ARGV[2])",
      [job.listKey],
      [String(outer.token), String(inner.token)],
    );
  });
}
await close();
process.stdout.write('done\n');
