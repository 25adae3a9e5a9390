import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Debian's faketime package; the MT build, since Node runs threads.
const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1';

/** Which of a process's clocks a {@link ProcessClock} moves. */
export type FakedClocks =
  /** `Date.now()` and every other read of the time of day; timers and `performance.now()` stay true. */
  | 'wall'
  /** The time of day and the monotonic clock: timers, `performance.now()`, all of the process's time. */
  | 'all';

/**
 * A client process's clock moved by libfaketime (LD_PRELOAD): shifted (`+3600`, `-1h`), running at a rate
 * (`+0 x1.5`), or jumped while the process runs ({@link ProcessClock.set}: libfaketime reads its
 * spec from a file on every clock read). Start the process with {@link ProcessClock.environment}.
 * Not for `redis-server`: this machine's build (jemalloc) recurses into the clock at start-up under
 * libfaketime and never answers; `ServerClock` moves a server's clock.
 */
export class ProcessClock {
  readonly #file: string;
  #spec: string;

  /** `spec` is libfaketime's: `+0` (true time), `+3600` (an hour ahead), `+0 x1.5` (1.5 × as fast). */
  constructor(
    spec: string,
    readonly clocks: FakedClocks,
  ) {
    if (!fs.existsSync(LIBFAKETIME)) throw new Error(`${LIBFAKETIME} is missing: apt-get install faketime`);
    this.#file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-clock-')), 'faketime');
    this.#spec = spec;
    fs.writeFileSync(this.#file, spec);
  }

  /** The spec in force. */
  get spec(): string {
    return this.#spec;
  }

  /** The environment variables that put a process started with them on this clock. */
  get environment(): Record<string, string> {
    return {
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: this.#file,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: this.clocks === 'wall' ? '1' : '0',
    };
  }

  /** Moves the clock of every process on it to `spec`, at once (a jump). */
  set(spec: string): void {
    fs.writeFileSync(this.#file, spec);
    this.#spec = spec;
  }

  /** Removes its file; the processes on it should have ended. */
  dispose(): void {
    fs.rmSync(path.dirname(this.#file), { recursive: true, force: true });
  }
}
