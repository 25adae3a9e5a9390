// A benchmark worker process: runs the jobs its parent sends over IPC (see jobs.ts).
import { kindById } from '@deadbolt/conformance/kinds';
import { contender } from '../contenders/index.js';
import type { LockSession, Mutex } from '../contenders/Contender.js';
import { sharedNow } from '../stats.js';
import { tolerateStrayRejections } from '../strayRejections.js';
import type { Hold, JobReply, JobRequest, Jobs, MemorySample } from './jobs.js';

tolerateStrayRejections(`worker ${process.pid}`);

type Handlers = { [K in keyof Jobs]: (payload: Jobs[K]['payload']) => Promise<Jobs[K]['result']> };

let prepared: { session: LockSession; mutex: Mutex } | undefined;

const handlers: Handlers = {
  ping: () => Promise.resolve(null),

  handoffPrepare: async ({ contender: id, address, kind, lockName, leaseMs }) => {
    const session = await contender(id).connect(address, { lease: leaseMs });
    const mutexNamed = (name: string) => {
      if (!kindById(kind).fair) return session.mutex(name);
      if (!session.fairMutex) throw new Error(`${id} has no fair lock`);
      return session.fairMutex(name);
    };
    // One cycle on a lock of the same kind loads the scripts before the clock starts.
    await (await mutexNamed(`${lockName}:warm-up`).acquire()).release();
    prepared = { session, mutex: mutexNamed(lockName) };
    return null;
  },

  handoffRun: async ({ tasks, acquisitions, startAt, stopAt, drainMs, holdMs }) => {
    if (!prepared) throw new Error('handoffRun before handoffPrepare');
    const { session, mutex } = prepared;
    prepared = undefined;
    const holds: Hold[] = [];
    let left = acquisitions;
    let waiting = 0;
    await sleep(startAt - sharedNow());
    const sentBefore = session.connection.counter.sent;
    const contending = Promise.all(
      Array.from({ length: tasks }, async () => {
        while (left-- > 0 && sharedNow() < stopAt) {
          const asked = sharedNow();
          waiting++;
          const held = await mutex.acquire();
          waiting--;
          const acquired = sharedNow();
          if (holdMs > 0) await sleep(holdMs);
          const released = sharedNow();
          await held.release();
          holds.push([asked, acquired, released]);
        }
      }),
    );
    // A library whose waiters miss their wake-up would hold the run up for as long as they sleep:
    // the run ends `drainMs` after `stopAt` whatever is still waiting, and says how many were.
    const drained = await Promise.race([
      contending.then(() => true),
      sleep(stopAt + drainMs - sharedNow()).then(() => false),
    ]);
    if (!drained) contending.catch(() => undefined);
    const commandsSent = session.connection.counter.sent - sentBefore;
    const result = { holds: [...holds], commandsSent, waitingAtEnd: waiting };
    await session.close().catch(() => undefined);
    return result;
  },

  memory: async ({ contender: id, address, cycles, tasks, samples: sampleCount }) => {
    const session = await contender(id).connect(address);
    const mutexes = Array.from({ length: tasks }, (_, index) => session.mutex(`bench:memory:${index}`));
    const samples: MemorySample[] = [];
    let done = 0;
    const runUntil = async (target: number) => {
      await Promise.all(
        mutexes.map(async (mutex) => {
          while (done < target) {
            done++;
            await (await mutex.acquire()).release();
          }
        }),
      );
    };
    const sample = () => {
      globalThis.gc?.();
      samples.push({
        cycles: done,
        heapUsedBytes: process.memoryUsage().heapUsed,
        activeResources: process.getActiveResourcesInfo(),
      });
    };
    // The first step is the warm-up every later sample is compared with.
    const step = Math.ceil(cycles / sampleCount);
    await runUntil(step);
    sample();
    const started = performance.now();
    while (done < cycles) {
      await runUntil(Math.min(cycles, done + step));
      sample();
    }
    const cyclesPerSecond = ((done - step) / (performance.now() - started)) * 1000;
    await session.close();
    return { samples, cyclesPerSecond };
  },
};

process.on('message', (request: JobRequest) => {
  const handler = handlers[request.kind] as (payload: unknown) => Promise<unknown>;
  handler(request.payload).then(
    (result) => process.send?.({ id: request.id, result } satisfies JobReply),
    (error: unknown) =>
      process.send?.({
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies JobReply),
  );
});
// The parent went away: nothing more will come.
process.on('disconnect', () => process.exit(0));

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
