// One acquisition from its first attempt to the held lock (issue 34), on a fake runtime and fake
// timers: its phases, its wait, and the give-back rules (a late reply's hold, an uncertain
// attempt's, an abort's or a close's that raced a successful attempt, replicas that did not
// confirm), with no Redis.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientClosedError, InvalidArgumentError, RedisUnavailableError } from '../src/errors/LockError.js';
import { LocalHandoffs } from '../src/handoff/LocalHandoffs.js';
import type { CheckedAcquireOptions } from '../src/lock/AcquireOptions.js';
import { Acquisition } from '../src/lock/acquisition/Acquisition.js';
import { LockSite } from '../src/lock/acquisition/LockSite.js';
import type { HeldLock } from '../src/lock/HeldLock.js';
import { FakeLockRuntime, fakeKind, type Answer, type FakeRuntimeOptions } from './fakeLockRuntime.js';

const HELD: Answer = { status: 'heldByOther', ttl: 10_000 };
const TAKEN: Answer = { status: 'taken', grant: null };

function options(overrides: Partial<CheckedAcquireOptions> = {}): CheckedAcquireOptions {
  return {
    leaseTime: undefined,
    maxHoldTime: undefined,
    waitTime: 0,
    signal: undefined,
    owner: 'worker',
    ...overrides,
  };
}

function setUp(runtimeOptions: FakeRuntimeOptions = {}, kind = fakeKind()) {
  const runtime = new FakeLockRuntime(runtimeOptions);
  const site = new LockSite(runtime, 'orders', kind);
  const acquisition = (overrides: Partial<CheckedAcquireOptions> = {}) => new Acquisition(site, options(overrides));
  return { runtime, site, acquisition };
}

/** Answers attempts from a list, the last one repeating. */
function answers(...list: Answer[]): () => Answer {
  let next = 0;
  return () => list[Math.min(next++, list.length - 1)]!;
}

describe('Acquisition', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('takes a free lock with one attempt and no wait set up, and ends held', async () => {
    const { runtime, acquisition } = setUp();
    const taking = acquisition({ waitTime: Infinity });
    const held = await taking.take();
    expect(held?.owner).toBe('worker');
    expect(taking.phase).toBe('held');
    expect(taking.field).toBe('client:worker');
    expect(runtime.sent('acquire')).toHaveLength(1);
    expect(runtime.joined).toEqual([]);
    // Kept alive by the watchdog, under the attempt's hold id.
    expect(runtime.kept).toEqual([
      { hold: (runtime.sent('acquire')[0] as { attempt: { hold: string } }).attempt.hold, until: undefined },
    ]);
  });

  it('a held lock with no wait time gives up after the one attempt: null, and the events say timedOut', async () => {
    const { runtime, acquisition } = setUp({ answer: () => HELD });
    const events: string[] = [];
    runtime.emitter.on('waitStarted', () => events.push('waitStarted'));
    runtime.emitter.on('waitEnded', ({ outcome }) => events.push(`waitEnded ${outcome}`));
    const taking = acquisition();
    expect(await taking.take()).toBeNull();
    expect(taking.phase).toBe('gaveUp');
    expect(events).toEqual(['waitStarted', 'waitEnded timedOut']);
  });

  it('waits on the channel: joins, tries again at once, sleeps the holder TTL, and takes the lock when woken', async () => {
    const { runtime, acquisition } = setUp({ answer: answers(HELD, HELD, TAKEN) });
    const taking = acquisition({ waitTime: 60_000 });
    const held = taking.take();
    await vi.advanceTimersByTimeAsync(0);
    expect(taking.phase).toBe('waiting');
    expect(runtime.joined).toEqual(['channel:client:worker']);
    expect(runtime.sent('acquire')).toHaveLength(2);
    expect(runtime.subscription.sleeps).toEqual([10_000]);
    runtime.subscription.wake();
    expect((await held)?.owner).toBe('worker');
    expect(taking.phase).toBe('held');
    expect(runtime.subscription.released).toBe(true);
    expect(runtime.subscription.passedWakes).toBe(0);
  });

  it('a wait that runs out resolves null, leaves a queuing kind once, and passes on a wake it did not use', async () => {
    const { runtime, acquisition } = setUp({ answer: () => HELD }, fakeKind({ leave: true }));
    const taking = acquisition({ waitTime: 5_000 });
    const held = taking.take();
    await vi.advanceTimersByTimeAsync(0);
    runtime.subscription.wake();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await held).toBeNull();
    expect(taking.phase).toBe('gaveUp');
    expect(runtime.subscription.sleeps).toEqual([5_000, 5_000]);
    expect(runtime.sent('leave')).toHaveLength(1);
    expect(runtime.subscription.released).toBe(true);
    // Woken, then the next sleep ran out: that wake was acted on (an attempt followed it).
    expect(runtime.subscription.passedWakes).toBe(0);
  });

  it('an abort mid-wait rejects with its reason, leaves the queue once and passes an unused wake on', async () => {
    const controller = new AbortController();
    const { runtime, acquisition } = setUp({ answer: () => HELD }, fakeKind({ leave: true }));
    const events: string[] = [];
    runtime.emitter.on('waitEnded', ({ outcome }) => events.push(outcome));
    const taking = acquisition({ waitTime: Infinity, signal: controller.signal });
    const held = taking.take();
    const outcome = expect(held).rejects.toThrow('stop');
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error('stop'));
    await outcome;
    expect(taking.phase).toBe('gaveUp');
    expect(runtime.sent('leave')).toHaveLength(1);
    expect(events).toEqual(['aborted']);
  });

  it('an abort that races a successful first attempt wins: the hold goes back', async () => {
    const controller = new AbortController();
    const { runtime, acquisition } = setUp({
      answer: () => {
        controller.abort(new Error('too late'));
        return TAKEN;
      },
    });
    const taking = acquisition({ waitTime: Infinity, signal: controller.signal });
    await expect(taking.take()).rejects.toThrow('too late');
    const [attempt] = runtime.sent('acquire') as { attempt: { hold: string } }[];
    expect(runtime.released('giveBack')).toEqual([attempt!.attempt.hold]);
    expect(taking.phase).toBe('gaveUp');
  });

  it('an attempt whose outcome is unknown (Redis unreachable) gives back its hold by id and fails', async () => {
    const { runtime, acquisition } = setUp({ answer: () => ({ error: new RedisUnavailableError('gone') }) });
    const taking = acquisition({ waitTime: Infinity });
    await expect(taking.take()).rejects.toThrow(RedisUnavailableError);
    await vi.advanceTimersByTimeAsync(0);
    const [attempt] = runtime.sent('acquire') as { attempt: { hold: string } }[];
    expect(runtime.released('giveBack')).toEqual([attempt!.attempt.hold]);
    expect(taking.phase).toBe('gaveUp');
  });

  it('a reply that arrives after its call failed took the lock for nobody: it goes back at once', async () => {
    const { runtime, acquisition } = setUp({
      answer: () => ({ late: { status: 'taken', grant: null }, error: new Error('timed out') }),
    });
    await expect(acquisition().take()).rejects.toThrow('timed out');
    expect(runtime.released()).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    const [attempt] = runtime.sent('acquire') as { attempt: { hold: string } }[];
    expect(runtime.released('giveBack')).toEqual([attempt!.attempt.hold]);
  });

  it('closed while the attempt was in flight: the hold goes back and the acquisition fails as closed', async () => {
    const { runtime, acquisition } = setUp();
    runtime.answer = () => {
      runtime.closed = true;
      return TAKEN;
    };
    const taking = acquisition();
    await expect(taking.take()).rejects.toThrow(ClientClosedError);
    expect(runtime.released('giveBack')).toHaveLength(1);
    expect(taking.phase).toBe('gaveUp');
  });

  it('replicas that do not confirm the acquisition: the hold goes back and their error stands', async () => {
    const confirmReplicas = vi.fn(async () => {
      throw new Error('replicas lag');
    });
    const { runtime, acquisition } = setUp({ confirmReplicas });
    const taking = acquisition();
    await expect(taking.take()).rejects.toThrow('replicas lag');
    expect(confirmReplicas).toHaveBeenCalledWith('orders', 'acquire');
    expect(runtime.released('giveBack')).toHaveLength(1);
    expect(taking.phase).toBe('gaveUp');
  });

  it("an attempt the kind refuses fails with the kind's error, or an InvalidArgumentError", async () => {
    const { acquisition } = setUp({ answer: () => ({ status: 'refused' }) });
    await expect(acquisition().take()).rejects.toThrow(InvalidArgumentError);
    const refusing = { ...fakeKind(), refused: (owner: string) => new Error(`not for ${owner}`) };
    const other = setUp({ answer: () => ({ status: 'refused' }) }, refusing);
    await expect(other.acquisition().take()).rejects.toThrow('not for worker');
  });

  it('a kind with a backoff polls: no channel, a sleep of the backoff between attempts', async () => {
    const { runtime, acquisition } = setUp(
      { answer: answers(HELD, HELD, TAKEN) },
      fakeKind({ backoff: { delay: () => 25 } }),
    );
    const held = acquisition({ waitTime: Infinity }).take();
    await vi.advanceTimersByTimeAsync(60);
    expect(await held).not.toBeNull();
    expect(runtime.joined).toEqual([]);
    expect(runtime.sent('acquire')).toHaveLength(3);
  });

  it('a lock a local holder passes while the waiter sleeps is taken without another attempt', async () => {
    const handoffs = new LocalHandoffs({ maxPasses: 4, maxMillis: 20 });
    const { runtime, acquisition } = setUp(
      { answer: () => HELD, localHandoffs: handoffs },
      fakeKind({ handOff: true }),
    );
    const passedLocally: boolean[] = [];
    runtime.emitter.on('acquired', (event) => passedLocally.push(event.passedLocally));
    const taken = acquisition({ waitTime: Infinity, owner: 'waiter' }).take();
    await vi.advanceTimersByTimeAsync(0);
    expect(runtime.subscription.sleeps).toHaveLength(1);
    const claim = handoffs.claim('handoff\norders', undefined);
    if (typeof claim !== 'object') throw new Error('the waiter was not enlisted');
    expect(await claim.receiver.receiveFrom({ field: 'client:holder', hold: 'h0' }, claim.streak)).toBe(true);
    expect((await taken)?.owner).toBe('waiter');
    expect(passedLocally).toEqual([true]);
    expect(runtime.sent('acquire')).toHaveLength(2);
    expect(handoffs.size).toBe(0);
  });

  it('only the first release of a held lock may pass it on', async () => {
    const handoffs = new LocalHandoffs({ maxPasses: 4, maxMillis: 20 });
    const runtime = new FakeLockRuntime({ localHandoffs: handoffs });
    const site = new LockSite(runtime, 'orders', fakeKind({ handOff: true }));
    const held: HeldLock | null = await new Acquisition(site, options()).take();
    const receiveFrom = vi.fn(async () => {
      throw new RedisUnavailableError('gone');
    });
    const waiter = { interrupt: undefined, receiveFrom };
    handoffs.enlist('handoff\norders', waiter);
    await expect(held!.release()).rejects.toThrow(RedisUnavailableError);
    handoffs.enlist('handoff\norders', waiter);
    await held!.release();
    expect(receiveFrom).toHaveBeenCalledTimes(1);
    expect(runtime.released('run')).toHaveLength(1);
  });

  it('a phase only moves forward', async () => {
    const { acquisition } = setUp();
    const taking = acquisition();
    expect(taking.phase).toBe('attempting');
    await taking.take();
    expect(taking.phase).toBe('held');
    // A second take would go from held back to attempting.
    await expect(taking.take()).rejects.toThrow('cannot go from held');
  });

  describe('attemptAlone', () => {
    it('a held lock: null, reported as a wait that timed out', async () => {
      const { runtime, acquisition } = setUp({ answer: () => HELD });
      const events: string[] = [];
      runtime.emitter.on('waitEnded', ({ outcome }) => events.push(outcome));
      expect(await acquisition().attemptAlone()).toBeNull();
      expect(events).toEqual(['timedOut']);
    });

    it('a free lock: a hold that nobody keeps until kept, or that goes back', async () => {
      const { runtime, acquisition } = setUp();
      const unkept = await acquisition().attemptAlone();
      expect(runtime.kept).toEqual([]);
      expect((await unkept!.keep()).owner).toBe('worker');
      expect(runtime.kept).toHaveLength(1);
      const other = await acquisition({ owner: 'other' }).attemptAlone();
      await other!.giveBack();
      expect(runtime.released('giveBack')).toHaveLength(1);
    });
  });
});
