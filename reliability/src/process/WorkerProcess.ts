import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { processState, waitFor } from '@deadbolt/test-harness';
import { monotonicMicros } from '../clock.js';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx');
const running = new Set<{ kill(): Promise<WorkerExit> }>();

/** What every worker prints: one JSON object per line with an `event` field. */
export interface WorkerEvent {
  readonly event: string;
}

/** Where and how a worker process is started: a command prefix (a network namespace) and extra environment. */
export interface WorkerLaunch {
  /** A command that runs the rest of the command line (`ip netns exec <namespace>`); it must exec it, not fork. */
  readonly prefix?: readonly string[];
  /** Added to the environment (a faked clock's variables). */
  readonly environment?: Readonly<Record<string, string>>;
}

/** How a worker ended. */
export interface WorkerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** When the test process saw it end, in monotonic microseconds. */
  readonly at: number;
}

/**
 * A child process of the suite (a tsx script in `src/workers`), driven from the test process: it
 * gets its job as JSON in an environment variable, prints events as JSON lines, reads commands
 * as lines on stdin, and takes the faults the suite injects into processes (SIGKILL, SIGSTOP and
 * SIGCONT). Every worker a test leaves running is killed by {@link WorkerProcess.killAll}.
 */
export class WorkerProcess<Event extends WorkerEvent> {
  /** Every event so far, in order. */
  readonly events: Event[] = [];
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #exited: Promise<WorkerExit>;
  readonly #listeners = new Set<(event: Event) => void>();
  #exit: WorkerExit | undefined;
  #stderr = '';

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    child.stderr.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => this.#receive(line));
    // 'close' comes after the last stdout line, so no event arrives after the exit is known.
    this.#exited = new Promise((resolve) =>
      child.on('close', (code, signal) => {
        this.#exit = { code, signal, at: monotonicMicros() };
        running.delete(this);
        resolve(this.#exit);
      }),
    );
  }

  /**
   * Starts `script` with `job` in the environment variable `jobVariable`, launched as `launch`
   * says (by default, a plain child of this process).
   */
  static start<Event extends WorkerEvent>(
    script: string,
    jobVariable: string,
    job: object,
    launch: WorkerLaunch = {},
  ): WorkerProcess<Event> {
    const [command = process.execPath, ...prefixArgs] = [...(launch.prefix ?? []), process.execPath];
    const child = spawn(command, [...prefixArgs, '--import', tsx, script], {
      env: { ...process.env, ...launch.environment, [jobVariable]: JSON.stringify(job) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const worker = new WorkerProcess<Event>(child);
    running.add(worker);
    return worker;
  }

  /** Kills every worker still running (after each test, also a failed one). */
  static async killAll(): Promise<void> {
    await Promise.all([...running].map((worker) => worker.kill()));
  }

  get pid(): number {
    return this.#child.pid ?? 0;
  }

  /** How it ended; `undefined` while it runs. */
  get exit(): WorkerExit | undefined {
    return this.#exit;
  }

  /** What it wrote on stderr. */
  get stderr(): string {
    return this.#stderr;
  }

  /** Resolves with the first event (past or future) that `matches`; rejects if the worker ends first. */
  next<Matched extends Event>(matches: (event: Event) => event is Matched): Promise<Matched>;
  next(matches: (event: Event) => boolean): Promise<Event>;
  next(matches: (event: Event) => boolean): Promise<Event> {
    const seen = this.events.find(matches);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const listener = (event: Event) => {
        if (!matches(event)) return;
        this.#listeners.delete(listener);
        resolve(event);
      };
      this.#listeners.add(listener);
      void this.#exited.then((exit) => {
        if (!this.#listeners.delete(listener)) return;
        reject(
          new Error(
            `worker ${this.pid} ended (${exit.signal ?? exit.code}) before the event it was waited for:\n${this.#stderr}`,
          ),
        );
      });
    });
  }

  /** Calls `listener` with every later event. */
  onEvent(listener: (event: Event) => void): void {
    this.#listeners.add(listener);
  }

  /** Writes one command line to its stdin. */
  send(command: string): void {
    this.#child.stdin.write(`${command}\n`);
  }

  /** Resolves when it ends; rejects unless it ended by itself with exit code 0. */
  async finished(): Promise<void> {
    const exit = await this.#exited;
    if (exit.code !== 0) throw new Error(`worker ${this.pid} ended with ${exit.signal ?? exit.code}:\n${this.#stderr}`);
  }

  /** Freezes it (SIGSTOP) and resolves once the kernel reports it stopped. */
  async pause(): Promise<void> {
    this.#child.kill('SIGSTOP');
    await waitFor(() => processState(this.pid) === 'T' || this.#exit !== undefined, {
      timeoutMs: 5_000,
      intervalMs: 5,
      description: `worker ${this.pid} is stopped`,
    });
  }

  /** Lets a frozen worker run again (SIGCONT). */
  resume(): void {
    this.#child.kill('SIGCONT');
  }

  /** Kills it at once (SIGKILL), as a crash would, and resolves with its exit once it is gone. */
  async kill(): Promise<WorkerExit> {
    if (this.#exit === undefined) this.#child.kill('SIGKILL');
    return this.#exited;
  }

  #receive(line: string): void {
    let event: Event;
    try {
      event = JSON.parse(line) as Event;
    } catch {
      this.#stderr += `(stdout) ${line}\n`;
      return;
    }
    this.events.push(event);
    for (const listener of [...this.#listeners]) listener(event);
  }
}
