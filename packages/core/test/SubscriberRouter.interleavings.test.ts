import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SubscriberRouter } from '../src/adapter/SubscriberRouter.js';
import { FakeCluster, flush, recorder, settled } from './fakeSubscriber.js';

// Random interleavings of what waiters, the cluster and the connections do, from fixed seeds:
// whatever the order, once everything has settled the servers hold exactly the channels that
// have a waiter, each once, on its slot's owner, and no subscribe is left hanging.

const NODES = ['a', 'b', 'c'];
const CHANNELS = [
  { channel: 'x', sharded: false },
  { channel: 'y', sharded: true },
  { channel: 'z', sharded: true },
];
const SEEDS = 100;
const STEPS = 40;

/** A small deterministic PRNG (mulberry32), so that a failing seed can be replayed. */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** One channel's waiter as ChannelHub drives it: subscribe, then unsubscribe when done or failed. */
interface Waiter {
  wanted: boolean;
  pending: boolean;
  generation: number;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});

afterEach(() => {
  vi.useRealTimers();
});

/** One seed's run: the router, the fake cluster, and what the waiters want. */
class Scenario {
  readonly seed: number;
  readonly pick: (n: number) => number;
  readonly cluster = new FakeCluster(NODES);
  readonly router = new SubscriberRouter(this.cluster.topology);
  readonly waiters: Waiter[] = CHANNELS.map(() => ({ wanted: false, pending: false, generation: 0 }));
  readonly leaving: Promise<void>[] = [];
  // While set, route lookups wait: the driver is loading its slot map.
  #loaded: (() => void) | undefined;

  constructor(seed: number) {
    this.seed = seed;
    this.pick = random(seed);
    for (const { channel } of CHANNELS) this.cluster.place(channel, NODES[this.pick(NODES.length)] ?? 'a');
    this.router.listen(recorder());
  }

  subscribe(index: number): void {
    const { channel, sharded } = CHANNELS[index]!;
    const waiter = this.waiters[index]!;
    const generation = ++waiter.generation;
    waiter.wanted = true;
    waiter.pending = true;
    this.router.subscribe(channel, sharded).then(
      () => {
        if (waiter.generation === generation) waiter.pending = false;
      },
      () => {
        // ChannelHub unsubscribes at once when a subscribe fails, before anyone joins again.
        if (waiter.generation !== generation || !waiter.wanted) return;
        this.unsubscribe(index);
      },
    );
  }

  unsubscribe(index: number): void {
    const { channel, sharded } = CHANNELS[index]!;
    const waiter = this.waiters[index]!;
    waiter.generation++;
    waiter.wanted = false;
    waiter.pending = false;
    this.leaving.push(this.router.unsubscribe(channel, sharded));
  }

  /** Does one random thing: a waiter comes or goes, a slot moves, a connection acts, time passes. */
  async step(): Promise<void> {
    const { pick, cluster } = this;
    const index = pick(CHANNELS.length);
    const node = cluster.node(NODES[pick(NODES.length)]!);
    switch (pick(9)) {
      case 0:
      case 1:
        // Leaving also while the subscribe is unconfirmed: ChannelHub's timeout.
        if (this.waiters[index]!.wanted) this.unsubscribe(index);
        else this.subscribe(index);
        break;
      case 2:
        cluster.migrate(CHANNELS[index]!.channel, node.address);
        if (pick(2) === 0) cluster.reload();
        break;
      case 3:
        node.connectAll();
        break;
      case 4:
        if (pick(3) === 0) node.dropAll();
        break;
      case 5:
      case 6:
        pickFrom(
          pick,
          node.open.filter((connection) => connection.up),
        )?.replyNext();
        break;
      case 7:
        await vi.advanceTimersByTimeAsync(pick(2) * 1_000);
        break;
      default:
        if (this.#loaded) this.loadSlots();
        else cluster.lookupGate = new Promise((resolve) => (this.#loaded = resolve));
        break;
    }
    await flush();
  }

  loadSlots(): void {
    this.cluster.lookupGate = undefined;
    this.#loaded?.();
    this.#loaded = undefined;
  }

  /** Everything settles: nodes come back, every reply arrives, the driver's slot map catches up. */
  async settle(): Promise<void> {
    this.loadSlots();
    this.cluster.reload();
    for (let round = 0; round < 4; round++) {
      for (const node of this.cluster.nodes.values()) node.connectAll();
      await this.cluster.settle();
      await vi.advanceTimersByTimeAsync(1_000);
      await this.cluster.settle();
    }
  }

  /** What the servers must hold: each wanted channel once, on its slot's owner. */
  expected(): string[] {
    return CHANNELS.flatMap(({ channel, sharded }, index) =>
      this.waiters[index]!.wanted ? [`${this.cluster.ownerOf(channel)} ${sharded ? 's' : 'c'}:${channel}`] : [],
    ).sort();
  }
}

function pickFrom<T>(pick: (n: number) => number, items: readonly T[]): T | undefined {
  return items[pick(items.length)];
}

async function run(seed: number): Promise<void> {
  const scenario = new Scenario(seed);
  const { cluster, waiters } = scenario;
  for (let step = 0; step < STEPS; step++) await scenario.step();
  await scenario.settle();
  expect(
    waiters.map((waiter) => waiter.pending),
    `seed ${seed}: a subscribe still hangs`,
  ).toEqual(CHANNELS.map(() => false));
  expect(await settled(Promise.all(scenario.leaving)), `seed ${seed}: an unsubscribe still hangs`).toBe(true);
  expect(cluster.everything(), `seed ${seed}`).toEqual(scenario.expected());
  // And the links want the same: a reconnect of every connection restores exactly that.
  for (const node of cluster.nodes.values()) node.dropAll();
  for (const node of cluster.nodes.values()) node.connectAll();
  await cluster.settle();
  expect(cluster.everything(), `seed ${seed}, after a reconnect`).toEqual(scenario.expected());
  await scenario.router.close();
}

describe('SubscriberRouter under random interleavings', () => {
  it(`converges to what the waiters want (${SEEDS} seeds × ${STEPS} steps)`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) await run(seed);
  });
});
