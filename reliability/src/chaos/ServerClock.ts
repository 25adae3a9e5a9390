import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('./shiftClock.c', import.meta.url));

/**
 * A `redis-server`'s wall clock, moved forward or back while it runs: Redis expires keys by its
 * wall clock (`mstime()`), so a jump forward ends every lease early. Its event loop and timers run
 * on the monotonic clock, which stays true.
 *
 * Not libfaketime (`ProcessClock`): on this machine (libfaketime 0.9.10, Redis 7.0 on
 * Debian's shared jemalloc) redis-server never answers under it, whatever the options
 * (`DONT_FAKE_MONOTONIC=1`, `FAKETIME_NO_CACHE=1`, the non-MT library, `FAKETIME` or a
 * `FAKETIME_TIMESTAMP_FILE`): jemalloc's constructor reads the clock while it holds its start-up
 * lock, and libfaketime's lazy set-up then allocates (`dlsym` failing on `__ftime` and
 * `timer_settime@GLIBC_2.2` builds an error message; `sem_open` of its shared memory maps a
 * record), which waits on that lock for ever (seen in gdb). So it runs `shiftClock.c`, compiled
 * here with the machine's C compiler: raw syscalls, nothing that allocates.
 */
export class ServerClock {
  readonly #dir: string;
  readonly #library: string;
  #offsetMs = 0;

  constructor() {
    this.#dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-server-clock-'));
    this.#library = path.join(this.#dir, 'shiftClock.so');
    try {
      execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', this.#library, SOURCE], { stdio: 'pipe' });
    } catch (error) {
      fs.rmSync(this.#dir, { recursive: true, force: true });
      throw new Error(`could not compile ${SOURCE} with cc (apt-get install gcc)`, { cause: error });
    }
    fs.writeFileSync(this.#offset, '0');
  }

  /** How far ahead of the true time the clock is, in ms. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** The environment variables that put a process started with them on this clock. */
  get environment(): Record<string, string> {
    return { LD_PRELOAD: this.#library, SHIFTCLOCK_FILE: this.#offset };
  }

  /** Moves the clock of every process on it by `ms` (forward when positive), at once. */
  jump(ms: number): void {
    this.#offsetMs += ms;
    fs.writeFileSync(`${this.#offset}.tmp`, String(this.#offsetMs));
    fs.renameSync(`${this.#offset}.tmp`, this.#offset);
  }

  /** Removes its files; the processes on it should have ended. */
  dispose(): void {
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }

  get #offset(): string {
    return path.join(this.#dir, 'offset');
  }
}
