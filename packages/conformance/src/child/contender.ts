// A contending process for the multi-process exclusion tests. It builds the lock kind and role
// named by its parent, runs `tasks` concurrent tasks that each take the lock `iterations` times,
// and inside every hold reads a Redis counter, yields, and writes it back plus one: a lost update
// shows up as a short count. Reports its completed holds as JSON on stdout.
import { LockClient } from '@deadbolt/core';
import { connectExecutor, type ConnectionSpec } from '../backends/index.js';
import { kindById, type RoleName } from '../kinds/index.js';

interface ContenderJob {
  spec: ConnectionSpec;
  kindId: string;
  role: RoleName;
  lockName: string;
  counterKey: string;
  tasks: number;
  iterations: number;
}

const job = JSON.parse(process.env.DEADBOLT_CONTENDER_JOB ?? '') as ContenderJob;
const { executor, close } = await connectExecutor(job.spec);
const client = new LockClient(executor);
const lock = kindById(job.kindId).create([client], job.lockName, job.role);

const readCounter = async () =>
  Number((await executor.eval("return redis.call('get', KEYS[1])", [job.counterKey], [])) ?? 0);
const writeCounter = (value: number) =>
  executor.eval("return redis.call('set', KEYS[1], ARGV[1])", [job.counterKey], [value]);

let holds = 0;
await Promise.all(
  Array.from({ length: job.tasks }, async () => {
    for (let i = 0; i < job.iterations; i++) {
      await lock.withLock(async () => {
        const value = await readCounter();
        await new Promise((resolve) => setImmediate(resolve));
        await writeCounter(value + 1);
        holds++;
      });
    }
  }),
);
await client.close();
await close();
process.stdout.write(`${JSON.stringify({ holds })}\n`);
