import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const running = new Set<ChildProcess>();

/**
 * A tsx child process of a fenced-lock test, given its job as JSON in DEADBOLT_FENCED_JOB, talked
 * to by lines: the test writes lines to its stdin and reads the lines it prints.
 */
export class ChildProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: AsyncIterator<string>;
  readonly #exited: Promise<number | null>;
  #stderr = '';

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    this.#lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    this.#exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    child.stderr.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString()));
  }

  /** Starts `script` (a file next to this one) with `job`. */
  static start(script: string, job: object): ChildProcess {
    const child = spawn(
      process.execPath,
      ['--import', require.resolve('tsx'), fileURLToPath(new URL(script, import.meta.url))],
      {
        env: { ...process.env, DEADBOLT_FENCED_JOB: JSON.stringify(job) },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const started = new ChildProcess(child);
    running.add(started);
    return started;
  }

  /** Kills every child a test left running. */
  static async killAll(): Promise<void> {
    await Promise.all(
      [...running].map(async (child) => {
        child.#child.kill('SIGKILL');
        await child.#exited;
        running.delete(child);
      }),
    );
  }

  /** The next line the child prints; rejects when it exits first. */
  async line(): Promise<string> {
    const next = await this.#lines.next();
    if (next.done) throw new Error(`child process exited with ${await this.#exited}: ${this.#stderr}`);
    return next.value;
  }

  /** Writes a line to the child's stdin. */
  send(line: string): void {
    this.#child.stdin.write(`${line}\n`);
  }

  /** Sends a signal: `SIGSTOP` freezes the child as a long pause would, `SIGCONT` resumes it. */
  signal(signal: NodeJS.Signals): void {
    this.#child.kill(signal);
  }

  /** Resolves once the child exited with 0; rejects otherwise. */
  async finish(): Promise<void> {
    this.#child.stdin.end();
    const code = await this.#exited;
    running.delete(this);
    if (code !== 0) throw new Error(`child process exited with ${code}: ${this.#stderr}`);
  }
}
