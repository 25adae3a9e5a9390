import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTER_TRANSITIONS, SubscriberRouter } from '../src/adapter/SubscriberRouter.js';
import { checkTransition } from '../src/adapter/statusTransition.js';
import { FakeCluster, flush, recorder, settled } from './fakeSubscriber.js';

// Races of the subscriber router against connections that connect, reply and drop when the test
// says so. Each test ends by comparing what the fake servers hold with what the router was told:
// a channel with a live waiter is subscribed exactly once, on its slot's owner; any other is not.

let routers: SubscriberRouter[] = [];

beforeEach(() => {
  // setImmediate stays real: flush() relies on it to run every pending promise callback.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});

afterEach(async () => {
  await Promise.all(routers.map((router) => router.close()));
  routers = [];
  vi.useRealTimers();
});

function routerFor(cluster: FakeCluster) {
  const router = new SubscriberRouter(cluster.topology);
  const heard = recorder();
  router.listen(heard);
  routers.push(router);
  return { router, heard };
}

/** Lets a scheduled reroute run to its end. */
async function runReroute(): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
  await flush();
}

const kinds = [
  { kind: 'classic', sharded: false },
  { kind: 'sharded', sharded: true },
];

// A race the router loses tends to hang a waiter: fail fast instead.
describe('SubscriberRouter', { timeout: 2_000 }, () => {
  it.each(kinds)(
    'keeps the next waiter of a $kind channel subscribed when a reroute to a still-connecting node completes late',
    async ({ sharded }) => {
      const cluster = new FakeCluster(['a', 'b']);
      cluster.place('ch', 'a');
      const { router, heard } = routerFor(cluster);
      const first = router.subscribe('ch', sharded);
      await flush();
      cluster.node('a').connectAll();
      await cluster.settle();
      await first;
      // The slot moves to b; the router reroutes the channel there, over a link still connecting.
      cluster.migrate('ch', 'b');
      cluster.reload();
      await runReroute();
      expect(cluster.node('b').connections.map((connection) => connection.up)).toEqual([false]);
      // The last waiter leaves: the link to b is not up, so the unsubscribe returns at once.
      const leaving = router.unsubscribe('ch', sharded);
      expect(await settled(leaving)).toBe(true);
      // A new waiter comes, then the link to b finishes connecting and every reply arrives.
      const second = router.subscribe('ch', sharded);
      await flush();
      cluster.node('b').connectAll();
      await cluster.settle();
      expect(await settled(second)).toBe(true);
      await second;
      expect(cluster.everything()).toEqual([`b ${sharded ? 's' : 'c'}:ch`]);
      // The waiter hears the release instead of sleeping out the lock's TTL.
      expect(cluster.publish('ch', '0', sharded)).toBe(1);
      expect(heard.messages).toEqual(['ch:0']);
      // And it survives a reconnect: the link still wants the channel.
      cluster.node('b').dropAll();
      cluster.node('b').connectAll();
      await cluster.settle();
      expect(cluster.everything()).toEqual([`b ${sharded ? 's' : 'c'}:ch`]);
    },
  );

  it('subscribes channels requested while their node is still connecting, once each, when the server confirmed', async () => {
    const cluster = new FakeCluster(['a']);
    const { router } = routerFor(cluster);
    const x = router.subscribe('x', false);
    const y = router.subscribe('y', true);
    await flush();
    expect(cluster.opened).toBe(1);
    expect(await settled(x)).toBe(false);
    cluster.node('a').connectAll();
    await flush();
    // The commands reached the server, but the replies have not come back yet.
    expect(cluster.everything()).toEqual(['a c:x', 'a s:y']);
    expect(await settled(x)).toBe(false);
    await cluster.settle();
    await Promise.all([x, y]);
    expect(cluster.node('a').connections[0]?.log).toEqual(['SUBSCRIBE x', 'SSUBSCRIBE y']);
  });

  it('leaves nothing subscribed when the waiter gives up while the node is still connecting', async () => {
    const cluster = new FakeCluster(['a']);
    const { router } = routerFor(cluster);
    const given = router.subscribe('ch', false);
    given.catch(() => undefined);
    await flush();
    // The waiter's subscribe timed out (ChannelHub's timeout) and it unsubscribes: no hang.
    expect(await settled(router.unsubscribe('ch', false))).toBe(true);
    cluster.node('a').connectAll();
    await cluster.settle();
    expect(cluster.everything()).toEqual([]);
    // The next waiter gets the channel.
    const next = router.subscribe('ch', false);
    await cluster.settle();
    await next;
    expect(cluster.everything()).toEqual(['a c:ch']);
  });

  it('leaves nothing subscribed when the waiter gives up while its route is being looked up', async () => {
    const cluster = new FakeCluster(['a']);
    const { router } = routerFor(cluster);
    let loaded = () => undefined as void;
    cluster.lookupGate = new Promise((resolve) => (loaded = resolve));
    const given = router.subscribe('ch', false);
    given.catch(() => undefined);
    await flush();
    expect(await settled(router.unsubscribe('ch', false))).toBe(true);
    cluster.lookupGate = undefined;
    loaded();
    await flush();
    cluster.node('a').connectAll();
    await cluster.settle();
    await settled(given);
    expect(cluster.everything()).toEqual([]);
  });

  it.each(kinds)(
    'moves a $kind channel rerouted while its subscribe is in flight, leaving no copy behind',
    async ({ sharded }) => {
      const cluster = new FakeCluster(['a', 'b']);
      cluster.place('ch', 'a');
      const { router } = routerFor(cluster);
      const subscribing = router.subscribe('ch', sharded);
      await flush();
      cluster.migrate('ch', 'b');
      cluster.reload();
      await runReroute();
      // The subscribe to a reaches a only now (a sharded one is refused: MOVED).
      cluster.node('a').connectAll();
      await cluster.settle();
      cluster.node('b').connectAll();
      await cluster.settle();
      expect(await settled(subscribing)).toBe(true);
      await subscribing;
      expect(cluster.everything()).toEqual([`b ${sharded ? 's' : 'c'}:ch`]);
      // Still wanted by b's link after a reconnect, and by nobody else.
      for (const node of cluster.nodes.values()) node.dropAll();
      for (const node of cluster.nodes.values()) node.connectAll();
      await cluster.settle();
      expect(cluster.everything()).toEqual([`b ${sharded ? 's' : 'c'}:ch`]);
    },
  );

  it('keeps a sharded channel subscribed when its in-flight subscribe is refused (MOVED) while a reroute moves it', async () => {
    const cluster = new FakeCluster(['a', 'b']);
    cluster.place('ch', 'a');
    cluster.place('other', 'b');
    const { router } = routerFor(cluster);
    const other = router.subscribe('other', true);
    await flush();
    cluster.node('b').connectAll();
    await cluster.settle();
    await other;
    const subscribing = router.subscribe('ch', true);
    await flush();
    // The slot moves to b before the subscribe reaches a; the reroute subscribes on b at once.
    cluster.migrate('ch', 'b');
    cluster.reload();
    await runReroute();
    cluster.node('a').connectAll();
    // a refuses with MOVED, and the subscriber retries on b before the reroute's reply is back.
    cluster.node('a').connections[0]?.replyNext();
    await flush();
    await cluster.settle();
    expect(await settled(subscribing)).toBe(true);
    await subscribing;
    expect(cluster.everything()).toEqual(['b s:ch', 'b s:other']);
  });

  it('does not keep a waiter waiting on a node its channel has left', async () => {
    const cluster = new FakeCluster(['a', 'b']);
    cluster.place('ch', 'a');
    const { router } = routerFor(cluster);
    // a never finishes connecting (it failed); its slot goes to b.
    const subscribing = router.subscribe('ch', true);
    await flush();
    cluster.migrate('ch', 'b');
    cluster.reload();
    await runReroute();
    cluster.node('b').connectAll();
    await cluster.settle();
    expect(await settled(subscribing)).toBe(true);
    await subscribing;
    expect(cluster.everything()).toEqual(['b s:ch']);
    // When a comes back after all, what the router said there in order leaves it nothing.
    cluster.node('a').connectAll();
    await cluster.settle();
    expect(cluster.everything()).toEqual(['b s:ch']);
  });

  it('waits for the server to confirm an unsubscribe on a live connection', async () => {
    const cluster = new FakeCluster(['a']);
    const { router } = routerFor(cluster);
    const subscribing = router.subscribe('ch', false);
    await flush();
    cluster.node('a').connectAll();
    await cluster.settle();
    await subscribing;
    const leaving = router.unsubscribe('ch', false);
    expect(await settled(leaving)).toBe(false);
    await cluster.settle();
    expect(await settled(leaving)).toBe(true);
    expect(cluster.everything()).toEqual([]);
    // Unsubscribing what is not subscribed is harmless.
    await router.unsubscribe('ch', false);
  });

  it('fails a subscribe in flight when the router closes, and closes every connection', async () => {
    const cluster = new FakeCluster(['a']);
    const { router } = routerFor(cluster);
    const subscribing = router.subscribe('ch', false);
    await flush();
    // Expected before the close rejects it, or the rejection is unhandled while close runs.
    const failed = expect(subscribing).rejects.toThrow(/closed/);
    await router.close();
    await failed;
    expect(cluster.connections.every((connection) => connection.closed)).toBe(true);
    await expect(router.subscribe('other', false)).rejects.toThrow('The executor is closed');
  });

  it('closes once for good: the same promise each time, the waiting reroute cancelled, no later one', async () => {
    const cluster = new FakeCluster(['a', 'b']);
    cluster.place('ch', 'a');
    const { router, heard } = routerFor(cluster);
    const subscribing = router.subscribe('ch', false);
    await flush();
    cluster.node('a').connectAll();
    await cluster.settle();
    await subscribing;
    // a drops: a recheck waits for its timer.
    cluster.node('a').dropAll();
    expect(vi.getTimerCount()).toBe(1);
    const closing = router.close();
    expect(router.close()).toBe(closing);
    await closing;
    expect(vi.getTimerCount()).toBe(0);
    // Neither a reloaded slot map nor the time passing moves anything any more.
    cluster.migrate('ch', 'b');
    cluster.reload();
    await vi.advanceTimersByTimeAsync(2_000);
    await flush();
    expect(cluster.opened).toBe(1);
    expect(heard.reconnects).toBe(0);
    await expect(router.subscribe('ch', false)).rejects.toThrow('The executor is closed');
    expect(() => checkTransition('SubscriberRouter', ROUTER_TRANSITIONS, 'closed', 'open')).toThrow(
      "SubscriberRouter: illegal status transition from 'closed' to 'open'",
    );
  });

  it('restores exactly the live channels after a reconnect, and reports the recovery once', async () => {
    const cluster = new FakeCluster(['a']);
    const { router, heard } = routerFor(cluster);
    const subscribing = ['x', 'y', 'z'].map((channel) => router.subscribe(channel, false));
    await flush();
    cluster.node('a').connectAll();
    await cluster.settle();
    await Promise.all(subscribing);
    const leaving = router.unsubscribe('y', false);
    await cluster.settle();
    await leaving;
    cluster.node('a').dropAll();
    // While the connection is down: one waiter leaves (at once), another comes.
    expect(await settled(router.unsubscribe('z', false))).toBe(true);
    const w = router.subscribe('w', false);
    await flush();
    cluster.node('a').connectAll();
    await cluster.settle();
    await w;
    expect(cluster.everything()).toEqual(['a c:w', 'a c:x']);
    expect(heard.reconnects).toBe(1);
    expect(cluster.opened).toBe(1);
  });

  it('moves the channels of a node that stays down, and the node restores none of them when it returns', async () => {
    const cluster = new FakeCluster(['a', 'b']);
    cluster.place('ch', 'a');
    const { router, heard } = routerFor(cluster);
    const subscribing = router.subscribe('ch', true);
    await flush();
    cluster.node('a').connectAll();
    await cluster.settle();
    await subscribing;
    // a fails; its replica b takes the slot over.
    cluster.node('a').dropAll();
    cluster.migrate('ch', 'b');
    await vi.advanceTimersByTimeAsync(1_000);
    await flush();
    cluster.node('b').connectAll();
    await cluster.settle();
    expect(cluster.everything()).toEqual(['b s:ch']);
    expect(heard.reconnects).toBe(1);
    // a comes back (as a replica, or at all): its link, if still open, wants nothing.
    cluster.node('a').connectAll();
    await cluster.settle();
    expect(cluster.everything()).toEqual(['b s:ch']);
  });

  it('leaves nothing subscribed anywhere once the last waiter leaves, even mid-reroute', async () => {
    const cluster = new FakeCluster(['a', 'b']);
    cluster.place('x', 'a');
    cluster.place('y', 'a');
    const { router } = routerFor(cluster);
    const subscribing = [router.subscribe('x', false), router.subscribe('y', true)];
    await flush();
    cluster.node('a').connectAll();
    await cluster.settle();
    await Promise.all(subscribing);
    cluster.migrate('x', 'b');
    cluster.migrate('y', 'b');
    cluster.reload();
    await runReroute();
    await Promise.all([router.unsubscribe('x', false), router.unsubscribe('y', true)]);
    cluster.node('b').connectAll();
    await cluster.settle();
    expect(cluster.everything()).toEqual([]);
    for (const node of cluster.nodes.values()) node.dropAll();
    for (const node of cluster.nodes.values()) node.connectAll();
    await cluster.settle();
    expect(cluster.everything()).toEqual([]);
  });
});
