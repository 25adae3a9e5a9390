// `pnpm demo lock`: several processes, each with several tasks, take one Lock in turn, and inside
// each hold read a counter, pause, and write it back plus one (worker.ts, `contend`). Without
// mutual exclusion two holders would read the same value and one update would be lost, so the
// counter ending equal to the number of holds is what shows the lock works.
import { runWorker, type Section } from './section.js';

const PROCESSES = 4;
const TASKS = 3;
const ROUNDS = 5;

export const lockSection: Section = {
  name: 'lock',
  kind: 'Lock',
  about: `${PROCESSES} processes contend for one lock around a read-modify-write; no update may be lost`,
  async run(context) {
    const { url, redis } = await context.shared();
    await redis.del('demo:counter', 'demo:lock');
    console.log(`${PROCESSES} processes x ${TASKS} tasks x ${ROUNDS} rounds contend for lock "demo:lock"\n`);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: PROCESSES }, (_, i) =>
        runWorker(['contend', url, `process${i + 1}`, String(TASKS), String(ROUNDS)]),
      ),
    );
    const elapsed = performance.now() - started;
    const holds = PROCESSES * TASKS * ROUNDS;
    const counter = Number(await redis.get('demo:counter'));
    const lost = holds - counter;
    console.log(`\n${holds} holds in ${(elapsed / 1000).toFixed(1)} s; counter = ${counter}; lost updates: ${lost}`);
    return {
      kind: 'Lock',
      ok: lost === 0,
      text:
        lost === 0
          ? `${holds} holds by ${PROCESSES} processes, counter ${counter}: no update lost`
          : `${lost} of ${holds} updates lost`,
    };
  },
};
