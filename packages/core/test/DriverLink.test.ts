import { describe, expect, it } from 'vitest';
import { FakeCluster, FakeConnection, FakeLink } from './fakeSubscriber.js';

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
