import { describe, expect, it } from 'vitest';
import { DRIVER_LINK_TRANSITIONS, DriverLink, type DriverLinkStatus } from '../src/adapter/DriverLink.js';
import { checkTransition } from '../src/adapter/statusTransition.js';
import type { LinkEvents } from '../src/adapter/SubscriberLink.js';
import { FakeCluster, FakeConnection, FakeLink, flush, settled } from './fakeSubscriber.js';

// A link's own bookkeeping, over the fake in-order connection of the router's tests.

const events = { message: () => undefined, lost: () => undefined, restored: () => undefined, moved: () => undefined };

describe('DriverLink', () => {
  it('keeps a channel asked for again when the server refuses an earlier subscribe of it', async () => {
    const cluster = new FakeCluster(['a']);
    const connection = new FakeConnection(cluster.node('a'));
    cluster.node('a').connections.push(connection);
    const link = new FakeLink(connection, events);
    connection.connect();
    // Asked, given up on and asked again before the first reply: the first one is refused.
    connection.refuseNext = new Error('ERR refused');
    const first = link.subscribe('ch', false);
    first.catch(() => undefined);
    const second = link.subscribe('ch', false);
    await cluster.settle();
    await expect(first).rejects.toThrow('ERR refused');
    await second;
    expect(cluster.everything()).toEqual(['a c:ch']);
    // The link still wants the channel: a reconnect restores it.
    connection.drop();
    connection.connect();
    await cluster.settle();
    expect(cluster.everything()).toEqual(['a c:ch']);
    await link.close();
  });
});

/**
 * A link whose driver events the test fires by hand, and whose restores and unsubscribes finish
 * when the test says so.
 */
class ManualLink extends DriverLink {
  /** What the link reported, in order: `lost`, `restored`. */
  readonly heard: string[];
  /** Resolves the restores under way, oldest first. */
  readonly restores: (() => void)[] = [];
  /** Resolves the unsubscribes under way, oldest first. */
  readonly unsubscribes: (() => void)[] = [];
  closings = 0;

  constructor() {
    const heard: string[] = [];
    const events: LinkEvents = {
      message: () => undefined,
      lost: () => heard.push('lost'),
      restored: () => heard.push('restored'),
      moved: () => undefined,
    };
    super(events);
    this.heard = heard;
  }

  /** The driver says 'ready'; resolves when the link has dealt with it. */
  ready(): Promise<void> {
    return this.connectionReady();
  }

  /** The driver says the connection dropped. */
  lost(): void {
    this.connectionLost();
  }

  protected sendSubscribe(): Promise<unknown> {
    return Promise.resolve();
  }

  protected sendUnsubscribe(): Promise<unknown> {
    return new Promise<void>((resolve) => this.unsubscribes.push(resolve));
  }

  protected restore(): Promise<unknown> {
    return new Promise<void>((resolve) => this.restores.push(resolve));
  }

  protected closeConnection(): void {
    this.closings++;
  }
}

/** A link past its first 'ready'. */
async function readyLink(): Promise<ManualLink> {
  const link = new ManualLink();
  await link.ready();
  return link;
}

describe('DriverLink status', () => {
  it('is connecting until the first ready, which opens it without a restore or a report', async () => {
    const link = new ManualLink();
    expect(link.status).toBe<DriverLinkStatus>('connecting');
    // A drop before the first 'ready' lost no channel.
    link.lost();
    expect(link.status).toBe('connecting');
    await link.ready();
    expect(link.status).toBe('ready');
    expect(link.restores).toHaveLength(0);
    expect(link.heard).toEqual([]);
  });

  it('goes ready, reconnecting, restoring, ready: one loss, and the recovery once the channels are back', async () => {
    const link = await readyLink();
    link.lost();
    link.lost();
    expect(link.status).toBe('reconnecting');
    expect(link.heard).toEqual(['lost']);
    const readying = link.ready();
    expect(link.status).toBe('restoring');
    expect(await settled(readying)).toBe(false);
    expect(link.heard).toEqual(['lost']);
    link.restores[0]?.();
    await readying;
    expect(link.status).toBe('ready');
    expect(link.heard).toEqual(['lost', 'restored']);
  });

  it('goes restoring, reconnecting when the connection drops mid-restore, and reports only the next recovery', async () => {
    const link = await readyLink();
    link.lost();
    const first = link.ready();
    link.lost();
    expect(link.status).toBe('reconnecting');
    // The restore in flight stops being waited for: the connection it was for is gone.
    await first;
    link.restores[0]?.();
    await flush();
    expect(link.heard).toEqual(['lost', 'lost']);
    const second = link.ready();
    link.restores[1]?.();
    await second;
    expect(link.status).toBe('ready');
    expect(link.heard).toEqual(['lost', 'lost', 'restored']);
  });

  it('restores on a ready no loss came before, and again on a ready while restoring', async () => {
    const link = await readyLink();
    const first = link.ready();
    expect(link.status).toBe('restoring');
    const second = link.ready();
    expect(link.status).toBe('restoring');
    expect(link.restores).toHaveLength(2);
    link.restores[0]?.();
    await first;
    expect(link.status).toBe('ready');
    link.restores[1]?.();
    await second;
    expect(link.status).toBe('ready');
    expect(link.heard).toEqual(['restored']);
  });

  it.each<[DriverLinkStatus, (link: ManualLink) => Promise<void>]>([
    ['connecting', () => Promise.resolve()],
    ['ready', (link) => link.ready()],
    [
      'reconnecting',
      async (link) => {
        await link.ready();
        link.lost();
      },
    ],
    [
      'restoring',
      async (link) => {
        await link.ready();
        link.lost();
        void link.ready();
      },
    ],
  ])('closes from %s for good, once, and ignores the driver afterwards', async (from, reach) => {
    const link = new ManualLink();
    await reach(link);
    expect(link.status).toBe(from);
    const heard = [...link.heard];
    await link.close();
    await link.close();
    expect(link.status).toBe('closed');
    expect(link.closings).toBe(1);
    // A restore still in flight ends without a report; later driver events change nothing.
    for (const restore of link.restores) restore();
    link.lost();
    await link.ready();
    await flush();
    expect(link.status).toBe('closed');
    expect(link.heard).toEqual(heard);
  });

  it('waits for an unsubscribe reply while up, and no longer than the connection', async () => {
    const link = await readyLink();
    await link.subscribe('a', false);
    await link.subscribe('b', false);
    const answered = link.unsubscribe('a', false);
    expect(await settled(answered)).toBe(false);
    link.unsubscribes[0]?.();
    expect(await settled(answered)).toBe(true);
    const dropped = link.unsubscribe('b', false);
    expect(await settled(dropped)).toBe(false);
    link.lost();
    expect(await settled(dropped)).toBe(true);
    // While reconnecting nothing is waited for: the channel is simply not restored.
    await link.subscribe('c', false);
    expect(await settled(link.unsubscribe('c', false))).toBe(true);
  });

  it('refuses, as a bug, every transition its table does not list', () => {
    expect(() => checkTransition('DriverLink', DRIVER_LINK_TRANSITIONS, 'closed', 'ready')).toThrow(
      "DriverLink: illegal status transition from 'closed' to 'ready'",
    );
    expect(() => checkTransition('DriverLink', DRIVER_LINK_TRANSITIONS, 'reconnecting', 'ready')).toThrow(
      /from 'reconnecting' to 'ready'/,
    );
    expect(() => checkTransition('DriverLink', DRIVER_LINK_TRANSITIONS, 'connecting', 'restoring')).toThrow(
      /from 'connecting' to 'restoring'/,
    );
    expect(() => checkTransition('DriverLink', DRIVER_LINK_TRANSITIONS, 'ready', 'closed')).not.toThrow();
  });
});
