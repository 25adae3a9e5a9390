import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { JobReply, JobRequest, Jobs } from './jobs.js';

const require = createRequire(import.meta.url);
const entry = fileURLToPath(new URL('./worker.ts', import.meta.url));

/**
 * Child processes that run benchmark jobs (the contending processes of the handoff scenario, the
 * memory run), over IPC. Started with `--expose-gc` so that a job can measure its heap after a
 * full collection.
 */
export class WorkerPool {
  readonly #children: ChildProcess[];
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #nextId = 0;

  private constructor(children: ChildProcess[]) {
    this.#children = children;
    for (const child of children) {
      child.on('message', (reply: JobReply) => {
        const waiter = this.#pending.get(reply.id);
        this.#pending.delete(reply.id);
        if ('error' in reply) waiter?.reject(new Error(reply.error));
        else waiter?.resolve(reply.result);
      });
      child.on('exit', (code, signal) => {
        // A child that dies takes its jobs with it; fail them rather than wait forever.
        for (const [id, waiter] of this.#pending) {
          this.#pending.delete(id);
          waiter.reject(new Error(`worker exited (${signal ?? code})`));
        }
      });
    }
  }

  /** Starts `size` workers. */
  static async start(size: number): Promise<WorkerPool> {
    const children = Array.from({ length: size }, () =>
      spawn(process.execPath, ['--expose-gc', '--import', require.resolve('tsx'), entry], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    const pool = new WorkerPool(children);
    await Promise.all(children.map((_, index) => pool.run(index, 'ping', {})));
    return pool;
  }

  /** How many workers the pool has. */
  get size(): number {
    return this.#children.length;
  }

  /** Runs a job on worker `index`; rejects when the job fails or does not answer within `timeoutMs`. */
  run<K extends keyof Jobs>(
    index: number,
    kind: K,
    payload: Jobs[K]['payload'],
    timeoutMs = 120_000,
  ): Promise<Jobs[K]['result']> {
    const child = this.#children[index];
    if (!child?.connected) return Promise.reject(new Error(`worker ${index} is not running`));
    const id = this.#nextId++;
    return new Promise<Jobs[K]['result']>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${kind} did not finish within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.#pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as Jobs[K]['result']);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      child.send({ id, kind, payload } satisfies JobRequest);
    });
  }

  /** Stops every worker and waits for them to exit. */
  async close(): Promise<void> {
    await Promise.all(
      this.#children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
  }
}
