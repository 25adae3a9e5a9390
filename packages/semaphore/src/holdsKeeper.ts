import { call, type LockRuntime } from '@deadbolt/core/kit';
import { syncHoldsCommand } from './commands/syncHolds.js';

/** The shortest wait before looking at the semaphore's TTL again, in milliseconds. */
const SHORTEST_LOOK_MS = 20;
/** After a look that failed, how soon to look again while the TTL last seen lasts. */
const RETRY_MS = 500;

/**
 * Keeps the holds of one semaphore (`deadbolt_holds:{name}`) living as the semaphore does while
 * this process holds permits of it (see `semaphore-holds.lua`). Every script that reads or writes
 * the holds gives them the semaphore's TTL, but a Redisson peer may drop or lengthen that TTL
 * between two scripts (addPermits, drainPermits, clearExpire, expire), and the holds would then
 * expire while the semaphore lives, with the permits of their marks. So, while the TTL last seen
 * is finite, the keeper looks again after half of what was left (`sync-holds.lua`), and again,
 * down to {@link SHORTEST_LOOK_MS}: a look that finds the TTL dropped persists the holds, one
 * that finds it lengthened lengthens them, one that finds the semaphore missing drops them (its
 * permits went with it). A semaphore without a TTL, the usual case, costs no look. One keeper per
 * client and semaphore name, whatever the number of holders; its timer never keeps the process
 * alive.
 */
class HoldsKeeper {
  readonly #runtime: LockRuntime;
  readonly #name: string;
  readonly #idle: () => void;
  #holders = 0;
  #timer: NodeJS.Timeout | undefined;
  /** When the TTL last seen ends, on the monotonic clock. */
  #until = 0;

  constructor(runtime: LockRuntime, name: string, idle: () => void) {
    this.#runtime = runtime;
    this.#name = name;
    this.#idle = idle;
  }

  /** One more holder, whose acquisition saw the semaphore's PTTL `ttl`: returns what ends its holding (idempotent). */
  hold(ttl: number): () => void {
    this.#holders += 1;
    this.#saw(ttl);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#holders -= 1;
      if (this.#holders === 0) {
        this.#stop();
        this.#idle();
      }
    };
  }

  // The semaphore's PTTL as a script just found it (the holds share it now): look again before it ends.
  #saw(ttl: number): void {
    this.#stop();
    // -1: the holds live without expiry, as the semaphore does; -2 (or 0): they went with it.
    if (ttl <= 0 || this.#holders === 0) return;
    this.#until = performance.now() + ttl;
    this.#lookIn(Math.max(SHORTEST_LOOK_MS, Math.floor(ttl / 2)));
  }

  #lookIn(delay: number): void {
    this.#timer = setTimeout(() => void this.#look(), delay);
    this.#timer.unref();
  }

  async #look(): Promise<void> {
    this.#timer = undefined;
    const runtime = this.#runtime;
    if (this.#holders === 0 || runtime.closed) return;
    try {
      this.#saw(await runtime.run(call(syncHoldsCommand, { name: this.#name })));
    } catch (error) {
      const { events } = runtime;
      if (events.listening('handledError'))
        events.emit('handledError', { operation: 'renew', name: this.#name, error });
      const left = this.#until - performance.now();
      if (left > 0 && this.#holders > 0 && !runtime.closed && this.#timer === undefined)
        this.#lookIn(Math.max(SHORTEST_LOOK_MS, Math.min(RETRY_MS, left / 2)));
    }
  }

  #stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

const keepers = new WeakMap<LockRuntime, Map<string, HoldsKeeper>>();

/**
 * Keeps the holds of semaphore `name` living as the semaphore does while the permits an
 * acquisition took are held: `ttl` is the semaphore's PTTL the acquisition saw. Returns what to
 * call once they are given back (or found gone).
 */
export function keepHolds(runtime: LockRuntime, name: string, ttl: number): () => void {
  let byName = keepers.get(runtime);
  if (byName === undefined) {
    byName = new Map();
    keepers.set(runtime, byName);
  }
  let keeper = byName.get(name);
  if (keeper === undefined) {
    const names = byName;
    keeper = new HoldsKeeper(runtime, name, () => names.delete(name));
    byName.set(name, keeper);
  }
  return keeper.hold(ttl);
}
