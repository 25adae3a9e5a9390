import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { WaiterJob } from './waiter.js';

const require = createRequire(import.meta.url);
const script = fileURLToPath(new URL('./waiter.ts', import.meta.url));
const running = new Set<WaiterProcess>();

/** A child process of fair-lock waiters (see waiter.ts), driven from the test. */
export class WaiterProcess {
  /** Labels granted in this process, in the order they were granted. */
  readonly granted: string[] = [];
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #exited: Promise<number | null>;
  #stderr = '';

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    this.#exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.stderr.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString()));
  }

  /** Starts a waiter process and resolves once it is connected. */
  static async start(job: WaiterJob): Promise<WaiterProcess> {
    const child = spawn(process.execPath, ['--import', require.resolve('tsx'), script], {
      env: { ...process.env, DEADBOLT_FAIR_WAITER_JOB: JSON.stringify(job) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const waiter = new WaiterProcess(child);
    running.add(waiter);
    const lines = createInterface({ input: child.stdout });
    await new Promise<void>((resolve, reject) => {
      lines.on('line', (line) => {
        if (line === 'ready') resolve();
        else if (line.startsWith('granted ')) waiter.granted.push(line.slice('granted '.length));
      });
      void waiter.#exited.then((code) =>
        reject(new Error(`waiter process exited with ${code} before it was ready: ${waiter.#stderr}`)),
      );
    });
    return waiter;
  }

  /** Kills every waiter process a test left running. */
  static async killAll(): Promise<void> {
    await Promise.all([...running].map((waiter) => waiter.kill()));
  }

  /** Starts an acquisition as owner `label`. */
  wait(label: string): void {
    this.#child.stdin.write(`wait ${label}\n`);
  }

  /** Lets the process finish its acquisitions and exit; rejects when it fails. */
  async finish(): Promise<void> {
    this.#child.stdin.end();
    const code = await this.#exited;
    running.delete(this);
    if (code !== 0) throw new Error(`waiter process exited with ${code}: ${this.#stderr}`);
  }

  /** Kills the process at once (SIGKILL): its waiters vanish without leaving the queue. */
  async kill(): Promise<void> {
    this.#child.kill('SIGKILL');
    await this.#exited;
    running.delete(this);
  }
}
