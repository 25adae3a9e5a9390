// `pnpm demo semaphore`: a Semaphore of 2 permits guards two encoders. Six jobs of one permit each
// ask at once and run at most two at a time; a re-index that needs both permits asks meanwhile,
// holds none while it waits, and runs alone. Both halves are measured from the jobs themselves:
// the most that ran at once, and how many ran beside the re-index.
import { Semaphore } from '@deadbolt/semaphore';
import { sleep, stamp, type Section } from './section.js';

const PERMITS = 2;
const JOBS = 6;
const JOB_TIME = 100;
// The re-index asks once the first jobs are running.
const BIG_JOB_DELAY = 50;

export const semaphoreSection: Section = {
  name: 'semaphore',
  kind: 'Semaphore',
  about: `${JOBS} jobs share ${PERMITS} permits, at most ${PERMITS} at once; a job that needs all ${PERMITS} runs alone`,
  async run(context) {
    const { redis, locks } = await context.shared();
    // The semaphore has no TTL: start from a fresh one on a reused REDIS_URL.
    await redis.del('demo:encoders');
    const encoders = new Semaphore(locks, 'demo:encoders');
    await encoders.trySetPermits(PERMITS);
    const started = performance.now();
    const log = (event: string) => console.log(`  ${stamp(started)}  ${event}`);
    console.log(
      `Semaphore "${encoders.name}" with ${PERMITS} permits: ${JOBS} jobs of 1 permit, and a re-index of ${PERMITS}`,
    );
    let running = 0;
    let mostAtOnce = 0;
    let besideReindex = -1;
    const jobs = Array.from({ length: JOBS }, async (_, i) => {
      await using permit = await encoders.acquire(1, { waitTime: 10_000 });
      mostAtOnce = Math.max(mostAtOnce, ++running);
      log(`job${i + 1} encoding  (${running} running, ${permit.permits} permit)`);
      await sleep(JOB_TIME);
      running--;
    });
    const reindex = (async () => {
      await sleep(BIG_JOB_DELAY);
      log(`re-index asks for ${PERMITS} permits`);
      await using all = await encoders.acquire(PERMITS, { waitTime: 10_000 });
      besideReindex = running;
      log(`re-index running  (${all.permits} permits, ${running} jobs beside it)`);
      await sleep(JOB_TIME);
    })();
    await Promise.all([...jobs, reindex]);
    const available = await encoders.availablePermits();
    log(`all done; ${available} permits available`);
    await redis.del(encoders.name);

    const ok = mostAtOnce === PERMITS && besideReindex === 0 && available === PERMITS;
    return {
      kind: 'Semaphore',
      ok,
      text: ok
        ? `at most ${mostAtOnce} of ${JOBS} jobs at once; the ${PERMITS}-permit re-index ran alone; all ${available} permits back`
        : `${mostAtOnce} jobs at once (limit ${PERMITS}); ${besideReindex} beside the re-index; ${available} permits back`,
    };
  },
};
