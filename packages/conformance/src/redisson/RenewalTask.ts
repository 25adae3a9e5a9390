import { hashSlot } from '@deadbolt/core/adapter';
import type { RespValue } from '@deadbolt/test-harness';

/** What a renewal task needs of its client. */
export interface RenewalHost {
  /** `lockWatchdogTimeout`: the lease each renewal sets; the task runs every third of it. */
  readonly lockWatchdogTimeout: number;
  /** `lockWatchdogBatchSize`: locks per script call. */
  readonly lockWatchdogBatchSize: number;
  /** Whether the deployment is a cluster (renewals then go slot by slot). */
  readonly isCluster: boolean;
  /** Runs a script; routed by its first key. */
  eval(script: string, keys: readonly string[], args: readonly (string | number)[]): Promise<RespValue>;
}

/**
 * The threads of one client that hold one lock and want it renewed, as Redisson's `LockEntry`
 * (and `ReadLockEntry`): each acquisition adds its thread once more, each unlock removes one; the
 * first thread in line is the one whose field a {@link LockTask} renews.
 */
export class RenewalEntry {
  readonly #threads: number[] = [];
  readonly #counters = new Map<number, number>();
  /** The lock field of each thread: `<clientId>:<threadId>` (with `:write` for a write lock). */
  readonly lockNames = new Map<number, string>();
  /** A read lock's timeout key prefix of each thread (`{name}`, or the name when it has a brace). */
  readonly keyPrefixes = new Map<number, string>();

  /** Counts one more acquisition of `threadId`. */
  add(threadId: number, lockName: string, keyPrefix?: string): void {
    this.#counters.set(threadId, (this.#counters.get(threadId) ?? 0) + 1);
    this.#threads.push(threadId);
    if (!this.lockNames.has(threadId)) this.lockNames.set(threadId, lockName);
    if (keyPrefix !== undefined && !this.keyPrefixes.has(threadId)) this.keyPrefixes.set(threadId, keyPrefix);
  }

  /** Counts one unlock of `threadId`; its last one forgets the thread. */
  remove(threadId: number): void {
    const counter = this.#counters.get(threadId);
    if (counter === undefined) return;
    if (counter > 1) {
      this.#counters.set(threadId, counter - 1);
      return;
    }
    this.#counters.delete(threadId);
    this.lockNames.delete(threadId);
    this.keyPrefixes.delete(threadId);
    for (let at = this.#threads.indexOf(threadId); at >= 0; at = this.#threads.indexOf(threadId))
      this.#threads.splice(at, 1);
  }

  /** The thread that has been renewing longest; `undefined` when none is left. */
  get firstThreadId(): number | undefined {
    return this.#threads[0];
  }

  get hasNoThreads(): boolean {
    return this.#threads.length === 0;
  }
}

/**
 * Redisson's `RenewalTask`: one timer per client and kind of renewal (not one per lock). Every
 * `lockWatchdogTimeout / 3` it renews every registered lock, slot by slot in a cluster and
 * `lockWatchdogBatchSize` locks per script call, then schedules itself again; a lock that is gone
 * is dropped from the task. The first registration starts the timer, the last cancellation stops
 * it. {@link RenewalTask.stop} stops it for good, as when the process dies.
 */
export abstract class RenewalTask {
  protected readonly host: RenewalHost;
  /** The registered locks by name. */
  protected readonly entries = new Map<string, RenewalEntry>();
  #running = false;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #runs = 0;
  #lastError: unknown;

  constructor(host: RenewalHost) {
    this.host = host;
  }

  /** How many times the task has run (each run renews every registered lock once). */
  get runs(): number {
    return this.#runs;
  }

  /** The error of the latest run that failed, if any (Redisson logs it and carries on). */
  get lastError(): unknown {
    return this.#lastError;
  }

  /** The names of the locks being renewed. */
  get names(): string[] {
    return [...this.entries.keys()];
  }

  /** Whether the timer is armed. */
  get running(): boolean {
    return this.#running;
  }

  /**
   * Forgets one acquisition of `threadId` on lock `name` (every thread when `threadId` is
   * `null`, as a forced unlock does); a lock left without threads is no longer renewed.
   */
  cancelExpirationRenewal(name: string, threadId: number | null): void {
    const entry = this.entries.get(name);
    if (entry === undefined) return;
    if (threadId !== null) entry.remove(threadId);
    if (threadId === null || entry.hasNoThreads) this.entries.delete(name);
    if (this.entries.size === 0) this.#disarm();
  }

  /** Stops the timer for good: nothing is renewed any more (a process that died or shut down). */
  stop(): void {
    this.#stopped = true;
    this.#disarm();
  }

  /** Registers one acquisition; the first registration of any lock arms the timer. */
  protected register(name: string, threadId: number, lockName: string, keyPrefix?: string): void {
    let entry = this.entries.get(name);
    if (entry === undefined) {
      entry = new RenewalEntry();
      this.entries.set(name, entry);
    }
    entry.add(threadId, lockName, keyPrefix);
    if (!this.#running && !this.#stopped) {
      this.#running = true;
      this.#schedule();
    }
  }

  /**
   * Renews one batch of locks with one script call; resolves the names it found gone, whose
   * threads the task then forgets (every thread given for the name).
   */
  protected abstract renewBatch(
    names: readonly string[],
  ): Promise<{ readonly gone: readonly string[]; readonly threads: ReadonlyMap<string, readonly number[]> }>;

  #schedule(): void {
    if (!this.#running || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => void this.#run(), this.host.lockWatchdogTimeout / 3);
  }

  #disarm(): void {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #run(): Promise<void> {
    this.#timer = undefined;
    try {
      for (const names of this.#slotGroups()) {
        for (let at = 0; at < names.length; at += this.host.lockWatchdogBatchSize) {
          if (!this.#running) return;
          const { gone, threads } = await this.renewBatch(names.slice(at, at + this.host.lockWatchdogBatchSize));
          for (const name of gone)
            for (const threadId of threads.get(name) ?? []) this.cancelExpirationRenewal(name, threadId);
        }
      }
    } catch (error) {
      this.#lastError = error;
    } finally {
      this.#runs++;
      this.#schedule();
    }
  }

  // One group per slot in a cluster (a script's keys must share one), one group otherwise.
  #slotGroups(): string[][] {
    const names = [...this.entries.keys()];
    if (!this.host.isCluster) return [names];
    const bySlot = new Map<number, string[]>();
    for (const name of names) {
      const slot = hashSlot(name);
      bySlot.set(slot, [...(bySlot.get(slot) ?? []), name]);
    }
    return [...bySlot.values()];
  }
}
