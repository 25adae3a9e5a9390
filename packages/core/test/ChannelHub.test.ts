import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientClosedError, RedisUnavailableError } from '../src/errors/LockError.js';
import type { Executor } from '../src/executor/Executor.js';
import { CHANNEL_LINGER_MS, ChannelHub, type ChannelSubscription } from '../src/pubsub/ChannelHub.js';
import type { WakeRule } from '../src/pubsub/WakeRule.js';

// The pub/sub hub's reference counting and timing on fake timers, over an executor whose
// subscribe and unsubscribe calls wait until the test answers them. How one channel's waiters
// are woken is ChannelEntry.test.ts's; real subscriptions are in the Redis suite.

const TIMEOUT = 1_000;
const SLEEP = 10_000;

type PubSubCommand = 'subscribe' | 'unsubscribe';

interface PubSubCall {
  readonly command: PubSubCommand;
  readonly channel: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** An executor whose pub/sub calls wait for the test; the rest is unused by the hub. */
class FakePubSub {
  /** Every pub/sub call in the order the hub made it, e.g. `subscribe a` or `unsubscribe a (sharded)`. */
  readonly log: string[] = [];
  readonly #unanswered: PubSubCall[] = [];

  readonly executor: Executor = {
    isCluster: false,
    evalsha: () => Promise.reject(new Error('not used by the hub')),
    eval: () => Promise.reject(new Error('not used by the hub')),
    command: () => Promise.reject(new Error('not used by the hub')),
    subscribe: (channel, sharded) => this.#call('subscribe', channel, sharded),
    unsubscribe: (channel, sharded) => this.#call('unsubscribe', channel, sharded),
    listen: () => undefined,
    close: () => Promise.resolve(),
  };

  /** Answers the oldest unanswered call of `command` on `channel` with success. */
  confirm(command: PubSubCommand, channel: string): void {
    this.#take(command, channel).resolve();
  }

  /** Answers the oldest unanswered call of `command` on `channel` with `error`. */
  refuse(command: PubSubCommand, channel: string, error: Error): void {
    this.#take(command, channel).reject(error);
  }

  #call(command: PubSubCommand, channel: string, sharded: boolean): Promise<void> {
    this.log.push(`${command} ${channel}${sharded ? ' (sharded)' : ''}`);
    return new Promise((resolve, reject) => this.#unanswered.push({ command, channel, resolve, reject }));
  }

  #take(command: PubSubCommand, channel: string): PubSubCall {
    const index = this.#unanswered.findIndex((call) => call.command === command && call.channel === channel);
    const call = this.#unanswered[index];
    if (!call) throw new Error(`no ${command} ${channel} is waiting for an answer`);
    this.#unanswered.splice(index, 1);
    return call;
  }
}

type Outcome = { state: 'pending' } | { state: 'fulfilled'; value: unknown } | { state: 'rejected'; reason: unknown };

/** Runs every pending promise callback: setImmediate stays real and fires after them. */
function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** How a promise has settled so far, without waiting on timers. */
async function stateOf(promise: Promise<unknown>): Promise<Outcome> {
  let outcome: Outcome = { state: 'pending' };
  promise.then(
    (value) => (outcome = { state: 'fulfilled', value }),
    (reason: unknown) => (outcome = { state: 'rejected', reason }),
  );
  await flush();
  return outcome;
}

function rejectedWith(reason: unknown): Outcome {
  return { state: 'rejected', reason };
}

let pubsub: FakePubSub;

function hubOf(options: { sharded?: boolean } = {}): ChannelHub {
  return new ChannelHub(pubsub.executor, () => Promise.resolve(options.sharded ?? false), TIMEOUT);
}

/** Lets a subscription that lost its last waiter linger out. */
function lingerOut(): Promise<unknown> {
  return vi.advanceTimersByTimeAsync(CHANNEL_LINGER_MS);
}

/** Joins `channel` and confirms its subscription when this join is the one that sends it. */
async function joined(hub: ChannelHub, channel: string, wakes?: WakeRule): Promise<ChannelSubscription> {
  const joining = hub.join(channel, wakes);
  await flush();
  if ((await stateOf(joining)).state === 'pending') pubsub.confirm('subscribe', channel);
  return joining;
}

describe('ChannelHub', { timeout: 2_000 }, () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    pubsub = new FakePubSub();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('subscribes a channel once for two joins, and leaves no timer behind', async () => {
    const hub = hubOf();
    const first = hub.join('a');
    const second = hub.join('a');
    await flush();
    expect(pubsub.log).toEqual(['subscribe a']);
    pubsub.confirm('subscribe', 'a');
    await Promise.all([first, second]);
    expect(hub.channels).toEqual(['a']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('unsubscribes a linger after the last share is released, and a share counts once however often released', async () => {
    const hub = hubOf();
    const first = await joined(hub, 'a');
    const second = await joined(hub, 'a');
    first.release();
    first.release();
    await flush();
    expect(pubsub.log).toEqual(['subscribe a']);
    expect(hub.channels).toEqual(['a']);
    second.release();
    await vi.advanceTimersByTimeAsync(CHANNEL_LINGER_MS - 1);
    expect(pubsub.log).toEqual(['subscribe a']);
    expect(hub.channels).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a join within the linger takes the subscription as it is: no unsubscribe, no second subscribe', async () => {
    const hub = hubOf();
    (await joined(hub, 'a')).release();
    await vi.advanceTimersByTimeAsync(CHANNEL_LINGER_MS - 1);
    const again = await joined(hub, 'a');
    await lingerOut();
    expect(pubsub.log).toEqual(['subscribe a']);
    expect(hub.channels).toEqual(['a']);
    again.release();
    await lingerOut();
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a']);
  });

  it('a close during the linger gives the subscription back first, and leaves no timer', async () => {
    const hub = hubOf();
    (await joined(hub, 'a')).release();
    const closing = hub.close(new ClientClosedError());
    await flush();
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a']);
    expect((await stateOf(closing)).state).toBe('pending');
    pubsub.confirm('unsubscribe', 'a');
    expect((await stateOf(closing)).state).toBe('fulfilled');
    expect(vi.getTimerCount()).toBe(0);
    expect(hub.channels).toEqual([]);
  });

  it('a close whose unsubscribe never answers resolves after the subscribe timeout', async () => {
    const hub = hubOf();
    (await joined(hub, 'a')).release();
    const closing = hub.close(new ClientClosedError());
    await vi.advanceTimersByTimeAsync(TIMEOUT - 1);
    expect((await stateOf(closing)).state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect((await stateOf(closing)).state).toBe('fulfilled');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a mark holds while the confirmed channel has no wake, and only for that subscription', async () => {
    const hub = hubOf();
    const joining = hub.join('a');
    await flush();
    // Not confirmed yet: a message published now could be missed.
    expect(hub.mark('a')).toBeUndefined();
    pubsub.confirm('subscribe', 'a');
    const first = await joining;
    const mark = hub.mark('a');
    expect(first.missedNothingSince(mark)).toBe(true);
    expect(first.missedNothingSince(undefined)).toBe(false);
    hub.deliver('a', 'not a wake');
    expect(first.missedNothingSince(mark)).toBe(true);
    hub.deliver('a', '0');
    expect(first.missedNothingSince(mark)).toBe(false);
    const later = hub.mark('a');
    hub.wakeEveryone();
    expect(first.missedNothingSince(later)).toBe(false);
    first.release();
    await lingerOut();
    pubsub.confirm('unsubscribe', 'a');
    const again = await joined(hub, 'a');
    expect(again.missedNothingSince(hub.mark('b'))).toBe(false);
    expect(again.missedNothingSince(later)).toBe(false);
  });

  it('subscribes again after an unsubscribe of the channel that was in flight when it joined', async () => {
    const hub = hubOf();
    (await joined(hub, 'a')).release();
    await lingerOut();
    const rejoining = hub.join('a');
    await flush();
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a']);
    pubsub.confirm('unsubscribe', 'a');
    await flush();
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a', 'subscribe a']);
    pubsub.confirm('subscribe', 'a');
    expect((await stateOf(rejoining)).state).toBe('fulfilled');
    expect(hub.channels).toEqual(['a']);
  });

  it('subscribes again after an unsubscribe that failed', async () => {
    const hub = hubOf();
    (await joined(hub, 'a')).release();
    await lingerOut();
    const rejoining = hub.join('a');
    await flush();
    pubsub.refuse('unsubscribe', 'a', new Error('Connection is closed.'));
    await flush();
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a', 'subscribe a']);
    pubsub.confirm('subscribe', 'a');
    expect((await stateOf(rejoining)).state).toBe('fulfilled');
  });

  it('rejects every join of a refused subscribe with RedisUnavailableError, keeps no entry, and retries on the next join', async () => {
    const hub = hubOf();
    const first = hub.join('a');
    const second = hub.join('a');
    await flush();
    const refusal = new Error('ERR max clients');
    pubsub.refuse('subscribe', 'a', refusal);
    const outcomes = await Promise.all([stateOf(first), stateOf(second)]);
    for (const outcome of outcomes) expect(outcome).toEqual(rejectedWith(expect.any(RedisUnavailableError)));
    expect(outcomes[0]).toMatchObject({ reason: { cause: refusal } });
    expect(hub.channels).toEqual([]);
    // The hub takes back a subscription that might have landed anyway, then subscribes afresh.
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a']);
    const retrying = hub.join('a');
    pubsub.confirm('unsubscribe', 'a');
    await flush();
    pubsub.confirm('subscribe', 'a');
    expect((await stateOf(retrying)).state).toBe('fulfilled');
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a', 'subscribe a']);
  });

  it('fails a subscribe that is not confirmed within the timeout', async () => {
    const hub = hubOf();
    const joining = hub.join('a');
    await flush();
    await vi.advanceTimersByTimeAsync(TIMEOUT - 1);
    expect(await stateOf(joining)).toEqual({ state: 'pending' });
    await vi.advanceTimersByTimeAsync(1);
    expect(await stateOf(joining)).toEqual(rejectedWith(expect.any(RedisUnavailableError)));
    expect(hub.channels).toEqual([]);
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a']);
    expect(vi.getTimerCount()).toBe(0);
  });

  // The timeout bounds how long a join may take; an unsubscribe that never answers must not
  // hold a later join of the same channel past it.
  it('fails a join within the timeout when the unsubscribe it waits for never answers', async () => {
    const hub = hubOf();
    (await joined(hub, 'a')).release();
    await lingerOut();
    const rejoining = hub.join('a');
    // It rejects while the timers advance, before stateOf looks at it.
    rejoining.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(TIMEOUT);
    expect(await stateOf(rejoining)).toEqual(rejectedWith(expect.any(RedisUnavailableError)));
  });

  it('wakes exactly one sleeper on a 0 and every sleeper on a 1, only on its channel', async () => {
    const hub = hubOf();
    const waiters = [await joined(hub, 'a'), await joined(hub, 'a'), await joined(hub, 'a')];
    const other = await joined(hub, 'b');
    const otherSleep = other.sleep(SLEEP);
    const sleeps = waiters.map((waiter) => waiter.sleep(SLEEP));
    hub.deliver('a', '0');
    const oneWoken = [{ state: 'fulfilled', value: true }, { state: 'pending' }, { state: 'pending' }];
    expect(await Promise.all(sleeps.map(stateOf))).toEqual(oneWoken);
    hub.deliver('a', 'something else');
    hub.deliver('unknown', '1');
    expect(await Promise.all(sleeps.map(stateOf))).toEqual(oneWoken);
    hub.deliver('a', '1');
    expect(await Promise.all(sleeps.map(stateOf))).toEqual(sleeps.map(() => ({ state: 'fulfilled', value: true })));
    expect(await stateOf(otherSleep)).toEqual({ state: 'pending' });
  });

  it("reads a channel's messages by the wake rule its first waiter joined with", async () => {
    const hub = hubOf();
    // A semaphore's rule: a release publishes the permits now free; any number wakes everyone.
    const permits: WakeRule = (message) => (/^\d+$/.test(message) ? 'all' : undefined);
    const first = await joined(hub, 'permits', permits);
    // A later joiner's rule does not replace the channel's.
    const second = await joined(hub, 'permits');
    const sleeps = [first.sleep(SLEEP), second.sleep(SLEEP)];
    hub.deliver('permits', 'not a number');
    expect(await Promise.all(sleeps.map(stateOf))).toEqual([{ state: 'pending' }, { state: 'pending' }]);
    hub.deliver('permits', '7');
    expect(await Promise.all(sleeps.map(stateOf))).toEqual(sleeps.map(() => ({ state: 'fulfilled', value: true })));
  });

  it('keeps a wake that came while nobody slept for the next sleep', async () => {
    const hub = hubOf();
    const waiter = await joined(hub, 'a');
    hub.deliver('a', '0');
    expect(await stateOf(waiter.sleep(SLEEP))).toEqual({ state: 'fulfilled', value: true });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends a sleep with false when its timeout passes', async () => {
    const hub = hubOf();
    const sleeping = (await joined(hub, 'a')).sleep(500);
    await vi.advanceTimersByTimeAsync(500);
    expect(await stateOf(sleeping)).toEqual({ state: 'fulfilled', value: false });
  });

  it('hands a wake a waiter will not use to another waiter', async () => {
    const hub = hubOf();
    const leaving = await joined(hub, 'a');
    const staying = await joined(hub, 'a');
    const sleeping = staying.sleep(SLEEP);
    leaving.passWake();
    expect(await stateOf(sleeping)).toEqual({ state: 'fulfilled', value: true });
  });

  it('wakes every sleeper on every channel', async () => {
    const hub = hubOf();
    const sleeps = [await joined(hub, 'a'), await joined(hub, 'a'), await joined(hub, 'b')].map((waiter) =>
      waiter.sleep(SLEEP),
    );
    hub.wakeEveryone();
    expect(await Promise.all(sleeps.map(stateOf))).toEqual(sleeps.map(() => ({ state: 'fulfilled', value: true })));
  });

  it('rejects a sleep with the reason of its signal, aborted before or during it, and leaves no timer', async () => {
    const hub = hubOf();
    const waiter = await joined(hub, 'a');
    const stopped = new Error('stopped before');
    expect(await stateOf(waiter.sleep(SLEEP, AbortSignal.abort(stopped)))).toEqual(rejectedWith(stopped));
    const controller = new AbortController();
    const sleeping = waiter.sleep(SLEEP, controller.signal);
    expect(vi.getTimerCount()).toBe(1);
    const stoppedDuring = new Error('stopped during');
    controller.abort(stoppedDuring);
    expect(await stateOf(sleeping)).toEqual(rejectedWith(stoppedDuring));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('on close, rejects sleepers and later joins and sleeps with its error', async () => {
    const hub = hubOf();
    const waiter = await joined(hub, 'a');
    const sleeping = waiter.sleep(SLEEP);
    const closed = new ClientClosedError();
    const closing = hub.close(closed);
    expect(await stateOf(sleeping)).toEqual(rejectedWith(closed));
    expect(await stateOf(waiter.sleep(SLEEP))).toEqual(rejectedWith(closed));
    expect(await stateOf(hub.join('b'))).toEqual(rejectedWith(closed));
    expect(hub.channels).toEqual([]);
    // The waiter's channel is given back before the executor closes.
    expect(pubsub.log).toEqual(['subscribe a', 'unsubscribe a']);
    pubsub.confirm('unsubscribe', 'a');
    await closing;
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    { outcome: 'confirmed', answer: () => pubsub.confirm('subscribe', 'a') },
    { outcome: 'refused', answer: () => pubsub.refuse('subscribe', 'a', new Error('Connection is closed.')) },
  ])('rejects a join pending at close with its error once the subscribe is $outcome', async ({ answer }) => {
    const hub = hubOf();
    const joining = hub.join('a');
    await flush();
    const closed = new ClientClosedError();
    // Its unsubscribe is not answered here: the close settles by its timeout, not awaited.
    void hub.close(closed);
    answer();
    expect(await stateOf(joining)).toEqual(rejectedWith(closed));
  });

  it('uses sharded pub/sub for both subscribe and unsubscribe when channels are sharded', async () => {
    const hub = hubOf({ sharded: true });
    (await joined(hub, 'a')).release();
    await lingerOut();
    expect(pubsub.log).toEqual(['subscribe a (sharded)', 'unsubscribe a (sharded)']);
  });
});
