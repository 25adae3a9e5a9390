import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { GO, READY, type CompareJob } from './jobs.js';

const require = createRequire(import.meta.url);
const entry = fileURLToPath(new URL('./worker.ts', import.meta.url));
const WORKER_TIMEOUT_MS = 120_000;

// The next message `child` sends; rejects when it exits first or stays silent past the timeout.
function nextMessage(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message: unknown) => {
      settle();
      resolve(message);
    };
    const onExit = (code: number | null) => {
      settle();
      reject(new Error(`a compare worker exited (${code}) before it answered`));
    };
    const timer = setTimeout(() => {
      settle();
      reject(new Error(`a compare worker did not answer within ${WORKER_TIMEOUT_MS} ms`));
    }, WORKER_TIMEOUT_MS);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * Runs `jobs` in one worker process each: every worker connects and warms up, then all start
 * together, and each one's result comes back in the order of `jobs`. When one fails, the others
 * are stopped: they would wait for a start that never comes.
 */
export async function runWorkers<Result>(jobs: readonly CompareJob[]): Promise<Result[]> {
  const children = jobs.map((job) =>
    fork(entry, [JSON.stringify(job)], {
      execArgv: ['--import', require.resolve('tsx')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const exited = children.map((child) => new Promise((resolve) => child.once('exit', resolve)));
  try {
    const ready = await Promise.all(children.map(nextMessage));
    if (ready.some((message) => message !== READY))
      throw new Error(`a compare worker sent ${JSON.stringify(ready)} instead of ${READY}`);
    const results = children.map(nextMessage);
    for (const child of children) child.send(GO);
    return (await Promise.all(results)) as Result[];
  } catch (error) {
    for (const child of children) child.kill();
    throw error;
  } finally {
    await Promise.all(exited);
  }
}
