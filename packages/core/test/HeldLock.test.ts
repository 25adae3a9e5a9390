import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renewBatchCommand } from '../src/commands/renewBatch.js';
import {
  InvalidArgumentError,
  LockLostError,
  LockNotHeldError,
  RedisUnavailableError,
} from '../src/errors/LockError.js';
import { HeldLock } from '../src/lock/HeldLock.js';
import type { HoldHandle } from '../src/lock/HoldHandle.js';
import { watchLoss } from '../src/lock/watchLoss.js';
import { checkOwnerInUse, newGeneratedOwner } from '../src/owner/generatedOwners.js';
import { defineScript } from '../src/scripts/Script.js';
import type { RenewalTarget } from '../src/watchdog/RenewalScheduler.js';

// A held lock's own timing logic on fake timers, over a fake watchdog and a fake hold whose
// release and extend calls wait until the test answers them. Real holds are in the Redis suite.

const LEASE = 1_000;
const target: RenewalTarget = {
  command: renewBatchCommand(defineScript('test/renew', 'return {}')),
  name: 'report',
  field: 'client:owner',
  hold: 'instance:1',
};

/** A promise the test settles by hand. */
interface Pending<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: Error): void;
}

function pending<T>(): Pending<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Calls of one kind to the fake hold, answered oldest first. */
class CallQueue {
  count = 0;
  readonly #unanswered: Pending<boolean>[] = [];

  next(): Promise<boolean> {
    this.count++;
    const call = pending<boolean>();
    this.#unanswered.push(call);
    return call.promise;
  }

  answer(reply: boolean): void {
    this.#oldest().resolve(reply);
  }

  fail(error: Error): void {
    this.#oldest().reject(error);
  }

  #oldest(): Pending<boolean> {
    const call = this.#unanswered.shift();
    if (!call) throw new Error('no call is waiting for an answer');
    return call;
  }
}

/** One `keepAlive` registration with the fake watchdog. */
interface Registration {
  readonly target: RenewalTarget;
  readonly acquiredAt: number;
  readonly until: number | undefined;
  readonly lose: (error: LockLostError) => void;
  cancelled: boolean;
}

interface FakeHold {
  readonly handle: HoldHandle;
  /** What the held lock did to the watchdog and the hold, in order. */
  readonly log: string[];
  readonly registrations: Registration[];
  readonly releases: CallQueue;
  readonly extensions: CallQueue;
  /** How the held lock reported the end of the hold: `released`, or `lost <reason>`. */
  readonly ends: string[];
}

function fakeHold(
  options: {
    lease?: number;
    guardLease?: boolean;
    owner?: string;
    acquiredAt?: number;
    maxHoldTime?: number;
  } = {},
): FakeHold {
  const log: string[] = [];
  const registrations: Registration[] = [];
  const releases = new CallQueue();
  const extensions = new CallQueue();
  const ends: string[] = [];
  const handle: HoldHandle = {
    reportLost: (error) => ends.push(`lost ${error.reason}`),
    reportReleased: () => ends.push('released'),
    // As a kind's handle does: a fixed lease is guarded only where `guardLease` says so.
    keepAlive: (onLost, acquiredAt, until) => {
      if (until !== undefined && !(options.guardLease ?? false)) return undefined;
      log.push('keepAlive');
      const registration: Registration = { target, acquiredAt, until, lose: onLost, cancelled: false };
      registrations.push(registration);
      return {
        cancel: () => {
          log.push('cancel');
          registration.cancelled = true;
        },
      };
    },
    name: 'report',
    owner: options.owner ?? 'worker-1',
    leaseTime: options.lease,
    acquiredAt: options.acquiredAt ?? performance.now(),
    holdLimit:
      options.maxHoldTime === undefined ? undefined : { maxHoldTime: options.maxHoldTime, renewedLease: 3_000 },
    release: () => {
      log.push('release');
      return releases.next();
    },
    extend: (leaseTime) => {
      log.push(`extend ${leaseTime}`);
      return extensions.next();
    },
  };
  return { handle, log, registrations, releases, extensions, ends };
}

function holdLock(options: Parameters<typeof fakeHold>[0] = {}): { held: HeldLock; hold: FakeHold } {
  const hold = fakeHold(options);
  return { held: new HeldLock(hold.handle), hold };
}

function registration(hold: FakeHold, index = 0): Registration {
  const found = hold.registrations[index];
  if (!found) throw new Error(`no registration #${index}`);
  return found;
}

/** How a promise has settled so far, without waiting on timers. */
async function stateOf(
  promise: Promise<unknown>,
): Promise<{ state: 'pending' | 'fulfilled' | 'rejected'; reason?: unknown }> {
  let outcome: { state: 'pending' | 'fulfilled' | 'rejected'; reason?: unknown } = { state: 'pending' };
  promise.then(
    () => (outcome = { state: 'fulfilled' }),
    (reason: unknown) => (outcome = { state: 'rejected', reason }),
  );
  // setImmediate stays real: it runs after every pending promise callback.
  await new Promise((resolve) => setImmediate(resolve));
  return outcome;
}

async function releaseAnswered(held: HeldLock, hold: FakeHold, reply = true): Promise<void> {
  const releasing = held.release();
  hold.releases.answer(reply);
  await releasing;
}

describe('HeldLock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('has the watchdog renew a hold without a lease, once, from when the acquire was sent', () => {
    const acquiredAt = performance.now() - 50;
    const { held, hold } = holdLock({ acquiredAt });
    expect(hold.registrations).toEqual([
      { target, acquiredAt, until: undefined, lose: expect.any(Function), cancelled: false },
    ]);
    expect(held.leaseTime).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps a fixed lease without the watchdog', () => {
    const { held, hold } = holdLock({ lease: LEASE });
    expect(hold.registrations).toEqual([]);
    expect(held.leaseTime).toBe(LEASE);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('has the watchdog guard a fixed lease up to its end when guardLease is set', () => {
    const acquiredAt = performance.now() - 50;
    const { hold } = holdLock({ lease: LEASE, guardLease: true, acquiredAt });
    expect(hold.registrations).toEqual([
      { target, acquiredAt, until: acquiredAt + LEASE, lose: expect.any(Function), cancelled: false },
    ]);
  });

  it('loses a fixed lease when it ends, counted from when the acquire was sent', async () => {
    const acquiredAt = performance.now();
    await vi.advanceTimersByTimeAsync(400);
    const { held, hold } = holdLock({ lease: LEASE, guardLease: true, acquiredAt });
    await vi.advanceTimersByTimeAsync(LEASE - 400 - 1);
    expect(held.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    expect(registration(hold).cancelled).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborts the signal with the error the watchdog reports, and stops renewing', () => {
    const { held, hold } = holdLock();
    const lost = new LockLostError('gone', { lockName: 'report', reason: 'gone' });
    registration(hold).lose(lost);
    expect(held.signal.reason).toBe(lost);
    expect(registration(hold).cancelled).toBe(true);
  });

  it('stops renewal before it sends the release, then counts as released', async () => {
    const { held, hold } = holdLock();
    const releasing = held.release();
    expect(hold.log).toEqual(['keepAlive', 'cancel', 'release']);
    expect(held.released).toBe(false);
    hold.releases.answer(true);
    await releasing;
    expect(held.released).toBe(true);
    expect(held.signal.aborted).toBe(false);
  });

  it('refuses a second release without sending it', async () => {
    const { held, hold } = holdLock();
    await releaseAnswered(held, hold);
    await expect(held.release()).rejects.toBeInstanceOf(LockNotHeldError);
    expect(hold.releases.count).toBe(1);
  });

  it('stops the lease timer on release, so a released hold is never lost', async () => {
    const { held, hold } = holdLock({ lease: LEASE });
    await releaseAnswered(held, hold);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(LEASE * 2);
    expect(held.signal.aborted).toBe(false);
  });

  it('throws a LockLostError when the release finds the lock gone, aborts the signal with it, and counts as released', async () => {
    const { held, hold } = holdLock();
    const error: unknown = await releaseAnswered(held, hold, false).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LockLostError);
    expect(error).toMatchObject({ reason: 'gone' });
    expect(held.signal.reason).toBe(error);
    expect(held.released).toBe(true);
    expect(hold.ends).toEqual(['lost gone']);
    await expect(held.release()).rejects.toBeInstanceOf(LockNotHeldError);
  });

  it("rejects the release of a hold lost earlier with the signal's own error, and reports its end once", async () => {
    const { held, hold } = holdLock({ lease: 100 });
    await vi.advanceTimersByTimeAsync(100);
    expect(held.signal.reason).toMatchObject({ reason: 'leaseEnded' });
    // Redis still kept it (another hold of the owner kept the lock): released all the same.
    await expect(releaseAnswered(held, hold, true)).rejects.toBe(held.signal.reason);
    expect(hold.log).toContain('release');
    expect(hold.ends).toEqual(['lost leaseEnded']);
  });

  it('reports a released hold once, and a second release that waits for the first is refused', async () => {
    const { held, hold } = holdLock();
    const first = held.release();
    const second = held.release();
    hold.releases.answer(true);
    await first;
    await expect(second).rejects.toBeInstanceOf(LockNotHeldError);
    expect(hold.releases.count).toBe(1);
    expect(hold.ends).toEqual(['released']);
  });

  it('reports a release whose outcome is unknown as lost, and resolves a retry that finds it went through', async () => {
    const { held, hold } = holdLock();
    const failing = held.release();
    hold.releases.fail(new RedisUnavailableError('no reply'));
    await expect(failing).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(held.signal.reason).toMatchObject({ reason: 'outcomeUnknown' });
    await releaseAnswered(held, hold);
    expect(hold.ends).toEqual(['lost outcomeUnknown']);
  });

  it('stays releasable when the release call fails, and a retry sends it again', async () => {
    const { held, hold } = holdLock();
    const failing = held.release();
    hold.releases.fail(new RedisUnavailableError('no reply'));
    await expect(failing).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(held.released).toBe(false);
    await releaseAnswered(held, hold);
    expect(hold.releases.count).toBe(2);
    expect(held.released).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity])(
    'refuses extend(%s) with an InvalidArgumentError naming leaseTime, sending nothing',
    async (leaseTime) => {
      const { held, hold } = holdLock();
      const error = (await stateOf(held.extend(leaseTime))).reason;
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error).toMatchObject({ argument: 'leaseTime' });
      expect(hold.extensions.count).toBe(0);
      expect(registration(hold).cancelled).toBe(false);
    },
  );

  it('turns a renewed hold into a fixed lease counted from when the extend was sent', async () => {
    const { held, hold } = holdLock();
    const extending = held.extend(LEASE, { stopWatchdog: true });
    await vi.advanceTimersByTimeAsync(300);
    expect(registration(hold).cancelled).toBe(false);
    hold.extensions.answer(true);
    await extending;
    expect(hold.log).toEqual(['keepAlive', `extend ${LEASE}`, 'cancel']);
    expect(held.leaseTime).toBe(LEASE);
    await vi.advanceTimersByTimeAsync(LEASE - 300 - 1);
    expect(held.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
  });

  it('guards the new lease of an extended guarded hold from when the extend was sent', async () => {
    const { held, hold } = holdLock({ lease: LEASE, guardLease: true });
    const sentAt = performance.now();
    const extending = held.extend(5_000);
    await vi.advanceTimersByTimeAsync(300);
    hold.extensions.answer(true);
    await extending;
    expect(registration(hold, 0).cancelled).toBe(true);
    expect(registration(hold, 1)).toMatchObject({ acquiredAt: sentAt, until: sentAt + 5_000, cancelled: false });
    expect(vi.getTimerCount()).toBe(1);
  });

  it('lets a release that starts while an extend is in flight win: no lease, no renewal', async () => {
    const { held, hold } = holdLock();
    const extending = held.extend(LEASE, { stopWatchdog: true });
    await releaseAnswered(held, hold);
    hold.extensions.answer(true);
    expect((await stateOf(extending)).reason).toBeInstanceOf(LockNotHeldError);
    expect(held.leaseTime).toBeUndefined();
    expect(hold.registrations).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails an extend whose hold the watchdog reported lost while it was in flight with that loss', async () => {
    const { held, hold } = holdLock();
    const extending = held.extend(LEASE, { stopWatchdog: true });
    const lost = new LockLostError('renewal failed', { lockName: 'report', reason: 'gone' });
    registration(hold).lose(lost);
    hold.extensions.answer(true);
    expect((await stateOf(extending)).reason).toBe(lost);
    expect(held.signal.reason).toBe(lost);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('loses the hold when the extend finds it gone, and rejects with that loss', async () => {
    const { held, hold } = holdLock();
    const extending = held.extend(LEASE, { stopWatchdog: true });
    hold.extensions.answer(false);
    expect((await stateOf(extending)).reason).toBe(held.signal.reason);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    expect(registration(hold).cancelled).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses to extend a hold the watchdog keeps unless told to stop the watchdog, without sending anything', async () => {
    const { held, hold } = holdLock();
    expect(held.keptByWatchdog).toBe(true);
    for (const options of [undefined, {}, { stopWatchdog: false }, { stopWatchdog: 'yes' }, { stop: true }]) {
      const error = (await stateOf(held.extend(LEASE, options as never))).reason;
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).argument).toMatch(/^options\.stop/);
    }
    expect(hold.extensions.count).toBe(0);
    expect(registration(hold).cancelled).toBe(false);
    // A fixed lease needs nothing, and takes the option.
    const fixed = holdLock({ lease: LEASE });
    expect(fixed.held.keptByWatchdog).toBe(false);
    const extending = fixed.held.extend(LEASE, { stopWatchdog: true });
    fixed.hold.extensions.answer(true);
    await extending;
  });

  it('rejects an extend of a lost hold with its loss, as its release does, without sending anything', async () => {
    const { held, hold } = holdLock();
    const lost = new LockLostError('renewal failed', { lockName: 'report', reason: 'gone' });
    registration(hold).lose(lost);
    expect(held.keptByWatchdog).toBe(false);
    await expect(held.extend(LEASE)).rejects.toBe(lost);
    expect(hold.extensions.count).toBe(0);
  });

  describe('maxHoldTime', () => {
    it('turns the renewed hold into a fixed lease ending at its limit, a renewed lease before it, and ends it then', async () => {
      const { held, hold } = holdLock({ maxHoldTime: 10_000 });
      await vi.advanceTimersByTimeAsync(7_000 - 1);
      expect(hold.extensions.count).toBe(0);
      expect(held.keptByWatchdog).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      expect(hold.log).toEqual(['keepAlive', 'extend 3000']);
      hold.extensions.answer(true);
      await vi.advanceTimersByTimeAsync(0);
      expect(registration(hold).cancelled).toBe(true);
      expect(held.keptByWatchdog).toBe(false);
      await vi.advanceTimersByTimeAsync(3_000 - 1);
      expect(held.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(held.signal.reason).toMatchObject({ reason: 'maxHoldTimeReached' });
      expect(hold.ends).toEqual(['lost maxHoldTimeReached']);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('applies no more once released, or once an extend set a lease of its own', async () => {
      const released = holdLock({ maxHoldTime: 10_000 });
      await releaseAnswered(released.held, released.hold);
      expect(vi.getTimerCount()).toBe(0);
      const extended = holdLock({ maxHoldTime: 10_000 });
      const extending = extended.held.extend(60_000, { stopWatchdog: true });
      extended.hold.extensions.answer(true);
      await extending;
      await vi.advanceTimersByTimeAsync(20_000);
      expect(extended.hold.extensions.count).toBe(1);
      expect(extended.held.signal.aborted).toBe(false);
    });
  });

  it('refuses to extend a released hold without sending anything', async () => {
    const { held, hold } = holdLock();
    await releaseAnswered(held, hold);
    await expect(held.extend(LEASE)).rejects.toBeInstanceOf(LockNotHeldError);
    expect(hold.extensions.count).toBe(0);
  });

  it('releases once at the end of an await using block', async () => {
    const hold = fakeHold({ lease: LEASE });
    let inside: HeldLock | undefined;
    const block = (async () => {
      await using held = new HeldLock(hold.handle);
      inside = held;
    })();
    expect(hold.releases.count).toBe(1);
    hold.releases.answer(true);
    await block;
    expect(inside?.released).toBe(true);
    await inside?.[Symbol.asyncDispose]();
    expect(hold.releases.count).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps a generated owner joinable while any of its holds stands, counting each hold once', async () => {
    const owner = newGeneratedOwner();
    const first = holdLock({ owner });
    const second = holdLock({ owner });
    // The first hold is lost, then released: its use of the owner ends once, not twice.
    registration(first.hold).lose(new LockLostError('gone', { lockName: 'report', reason: 'gone' }));
    await expect(releaseAnswered(first.held, first.hold, false)).rejects.toBeInstanceOf(LockLostError);
    expect(checkOwnerInUse(owner, 'owner')).toBe(owner);
    await releaseAnswered(second.held, second.hold);
    expect(() => checkOwnerInUse(owner, 'owner')).toThrow(InvalidArgumentError);
  });

  it('keeps a generated owner joinable while a failed release may be retried', async () => {
    const owner = newGeneratedOwner();
    const { held, hold } = holdLock({ owner });
    const failing = held.release();
    hold.releases.fail(new RedisUnavailableError('no reply'));
    await expect(failing).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(checkOwnerInUse(owner, 'owner')).toBe(owner);
    await releaseAnswered(held, hold);
    expect(() => checkOwnerInUse(owner, 'owner')).toThrow(InvalidArgumentError);
  });
  describe('an outcome it never learned is taken as the worse one (issue 30)', () => {
    it('a shortening extend that failed ends the lease at the earlier end: the new lease from its send', async () => {
      const { held, hold } = holdLock({ lease: 20_000 });
      await vi.advanceTimersByTimeAsync(100);
      const extending = held.extend(800);
      await vi.advanceTimersByTimeAsync(300);
      hold.extensions.fail(new RedisUnavailableError('no reply'));
      await expect(extending).rejects.toBeInstanceOf(RedisUnavailableError);
      await vi.advanceTimersByTimeAsync(800 - 300 - 1);
      expect(held.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(held.signal.reason).toBeInstanceOf(LockLostError);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('a shortening extend still unanswered when its lease runs out loses the hold then', async () => {
      const { held, hold } = holdLock({ lease: 20_000 });
      const extending = held.extend(800);
      const outcome = expect(extending).rejects.toBeInstanceOf(LockLostError);
      await vi.advanceTimersByTimeAsync(799);
      expect(held.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(held.signal.reason).toBeInstanceOf(LockLostError);
      hold.extensions.answer(true);
      await outcome;
    });

    it('an extend answered in time leaves no timer of its own behind', async () => {
      const { held, hold } = holdLock();
      const extending = held.extend(800, { stopWatchdog: true });
      hold.extensions.answer(true);
      await extending;
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(800);
      expect(held.signal.reason).toBeInstanceOf(LockLostError);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('a lengthening extend that failed keeps the old, earlier end', async () => {
      const { held, hold } = holdLock({ lease: LEASE });
      const extending = held.extend(20_000);
      hold.extensions.fail(new RedisUnavailableError('no reply'));
      await expect(extending).rejects.toBeInstanceOf(RedisUnavailableError);
      expect(held.leaseTime).toBe(LEASE);
      await vi.advanceTimersByTimeAsync(LEASE);
      expect(held.signal.reason).toBeInstanceOf(LockLostError);
    });

    it('a failed extend of a renewed hold keeps renewal (it may not have run) and ends the hold when its lease would (it may have)', async () => {
      const { held, hold } = holdLock();
      const extending = held.extend(20_000, { stopWatchdog: true });
      hold.extensions.fail(new RedisUnavailableError('no reply'));
      await expect(extending).rejects.toBeInstanceOf(RedisUnavailableError);
      expect(registration(hold).cancelled).toBe(false);
      expect(held.leaseTime).toBeUndefined();
      await vi.advanceTimersByTimeAsync(20_000 - 1);
      expect(held.signal.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(held.signal.reason).toBeInstanceOf(LockLostError);
      expect(registration(hold).cancelled).toBe(true);
    });

    it('a watchdog that finds the hold gone after a failed extend still tells the holder at once', () => {
      const { held, hold } = holdLock();
      void held.extend(20_000, { stopWatchdog: true }).catch(() => undefined);
      hold.extensions.fail(new RedisUnavailableError('no reply'));
      const lost = new LockLostError('gone', { lockName: 'report', reason: 'gone' });
      registration(hold).lose(lost);
      expect(held.signal.reason).toBe(lost);
    });

    it('a failed release aborts the signal: it may have freed the lock for another holder', async () => {
      const { held, hold } = holdLock();
      const failing = held.release();
      hold.releases.fail(new RedisUnavailableError('no reply'));
      await expect(failing).rejects.toBeInstanceOf(RedisUnavailableError);
      expect(held.signal.reason).toBeInstanceOf(LockLostError);
    });

    it('sends extends one after another, each once the one before settled, so the last sent wins', async () => {
      const { held, hold } = holdLock({ lease: LEASE });
      const first = held.extend(5_000);
      const second = held.extend(9_000);
      expect(hold.log.filter((entry) => entry.startsWith('extend'))).toEqual(['extend 5000']);
      hold.extensions.fail(new RedisUnavailableError('no reply'));
      await expect(first).rejects.toBeInstanceOf(RedisUnavailableError);
      expect(hold.log.filter((entry) => entry.startsWith('extend'))).toEqual(['extend 5000', 'extend 9000']);
      hold.extensions.answer(true);
      await second;
      expect(held.leaseTime).toBe(9_000);
      // The later extend's lease stands alone: the first one, refused if it lands later, no longer counts.
      await vi.advanceTimersByTimeAsync(9_000 - 1);
      expect(held.signal.aborted).toBe(false);
    });
  });
});

describe('watchLoss', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('tells a watcher once, right after the signal aborts, with its reason; not one that stopped watching', () => {
    const { held, hold } = holdLock();
    const told: unknown[] = [];
    const stopped: unknown[] = [];
    watchLoss(held, (error) => told.push([error, held.signal.aborted]));
    const stop = watchLoss(held, (error) => stopped.push(error));
    stop();
    const lost = new LockLostError('gone', { lockName: 'report', reason: 'gone' });
    registration(hold).lose(lost);
    registration(hold).lose(new LockLostError('gone again', { lockName: 'report', reason: 'gone' }));
    expect(told).toEqual([[lost, true]]);
    expect(stopped).toEqual([]);
  });

  it('tells a watcher of a hold lost already at once', () => {
    const { held, hold } = holdLock();
    const lost = new LockLostError('gone', { lockName: 'report', reason: 'gone' });
    registration(hold).lose(lost);
    const told: unknown[] = [];
    watchLoss(held, (error) => told.push(error));
    expect(told).toEqual([lost]);
  });

  it('tells a watcher when a failed release aborts the signal', async () => {
    const { held, hold } = holdLock();
    const told: unknown[] = [];
    watchLoss(held, (error) => told.push(error));
    const failing = held.release();
    hold.releases.fail(new RedisUnavailableError('no reply'));
    await expect(failing).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(told).toEqual([held.signal.reason]);
  });

  it('watches without creating the signal, which Node makes only when asked for', async () => {
    const signals = vi.spyOn(AbortController.prototype, 'signal', 'get');
    const { held, hold } = holdLock();
    const stop = watchLoss(held, () => undefined);
    await releaseAnswered(held, hold);
    stop();
    expect(signals).not.toHaveBeenCalled();
  });
});
