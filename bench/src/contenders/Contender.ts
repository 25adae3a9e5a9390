import type { Address, Connection, DriverName } from '../drivers.js';

/** One acquisition, to be released once. */
export interface Hold {
  release(): Promise<void>;
}

/** A lock by name, as every contender offers it: each `acquire` has an owner of its own. */
export interface Mutex {
  /** Takes the lock, waiting as long as it takes. */
  acquire(): Promise<Hold>;
}

/** The features a scenario may need beyond a plain mutex. */
export type Feature = 'fair' | 'readWrite' | 'redlock' | 'autoExtend' | 'semaphore';

/**
 * What a contender offers of each feature: `true`, or why the scenario shows it as n/a. The
 * `semaphore` feature came later and may be left out: absent means none.
 */
export type Features = Readonly<
  Record<Exclude<Feature, 'semaphore'>, true | string> & Partial<Record<'semaphore', true | string>>
>;

/** Options of {@link Contender.connect}. */
export interface SessionOptions {
  /**
   * The lease of a lock kept alive automatically, in milliseconds (the watchdog timeout, the
   * lock TTL of an auto-extended hold). The library's default when absent.
   */
  readonly lease?: number;
}

/** A contender connected to one server. */
export interface LockSession {
  /** The driver client the locks run on; the floor is measured on the same client. */
  readonly connection: Connection;
  /** A lock named `name`. */
  mutex(name: string): Mutex;
  /** A fair (FIFO) lock named `name`, when the contender has the `fair` feature. */
  readonly fairMutex?: (name: string) => Mutex;
  /**
   * Takes `name` and keeps it alive automatically until released, when the contender has the
   * `autoExtend` feature; the lease is {@link SessionOptions.lease}.
   */
  readonly renewedHold?: (name: string) => Promise<Hold>;
  /**
   * A counting semaphore named `name` with `limit` permits, set up on the server, whose every
   * `acquire` takes `permits` of them at once (and each hold gives them back), when the contender
   * has the `semaphore` feature.
   */
  readonly semaphore?: (name: string, limit: number, permits: number) => Promise<Mutex>;
  /** Closes what the session opened. */
  close(): Promise<void>;
}

/** A contender connected to independent servers, for RedLock. */
export interface RedlockSession {
  /** The driver clients, one per server, in the order of the addresses. */
  readonly connections: readonly Connection[];
  /** A RedLock over every server, named `name`. */
  mutex(name: string): Mutex;
  close(): Promise<void>;
}

/** A lock library on one driver, as the benchmark runs it. */
export interface Contender {
  /** `<library>/<driver>`, unique. */
  readonly id: string;
  /** The library's name and version as installed. */
  readonly library: string;
  readonly driver: DriverName;
  readonly features: Features;
  /** How it is configured where it had a choice (retry delays, TTLs), for the report. */
  readonly settings: string;
  connect(address: Address, options?: SessionOptions): Promise<LockSession>;
  /** Present when the contender has the `redlock` feature. */
  connectRedlock?(addresses: readonly Address[]): Promise<RedlockSession>;
}

/**
 * Turns a `using(routine)` API (the lock is held, and extended, while the routine runs) into a
 * hold: resolves once the routine starts, and its release ends the routine.
 */
export function holdWhileRunning(using: (routine: () => Promise<void>) => Promise<unknown>): Promise<Hold> {
  return new Promise((resolve, reject) => {
    let end = () => {};
    const ended = new Promise<void>((done) => (end = done));
    const finished = using(async () => {
      resolve({
        release: async () => {
          end();
          await finished;
        },
      });
      await ended;
    });
    finished.catch(reject);
  });
}

/** A mutex over a library whose lock objects are one-shot: a fresh one per acquisition. */
export function mutexOf(acquire: () => Promise<() => Promise<unknown>>): Mutex {
  return {
    acquire: async () => {
      const release = await acquire();
      return { release: async () => void (await release()) };
    },
  };
}
