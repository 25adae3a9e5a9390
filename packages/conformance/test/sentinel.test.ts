// The plain Lock on a Sentinel deployment (a master, two replicas, three Sentinels), on both
// adapters with a Sentinel client: the core conformance suites, then failovers. Each adapter gets
// a deployment of its own, since the failover tests kill its master; sentinel-kinds.test.ts runs
// the other kinds.
import { LockLostError, type Executor } from '@deadbolt/core';
import { parseInfo, type RedisNode, type SentinelHandle } from '@deadbolt/test-harness';
import { describe, expect, it, vi } from 'vitest';
import { MAJORS, SENTINEL_BACKENDS, type ConnectedExecutor } from '../src/backends/index.js';
import { LOCK, subjectOf } from '../src/kinds/index.js';
import { LOCK_SUITES, type LockSuiteName } from '../src/lockConformance.js';
import { syncCalls, syncCommandsWithAof } from '../src/replicaSyncCommands.js';
import { useSuiteContext, type SuiteContext } from '../src/SuiteContext.js';
import { eventually, waitersAsleep } from '../src/timing.js';

const SUITES: readonly LockSuiteName[] = ['exclusion', 'reentrancy', 'waiting'];
/** A lease longer than a SENTINEL FAILOVER takes here (about 2.5 s, no election), renewed every 3.3 s. */
const WATCHDOG_MS = 10_000;
/**
 * A lease longer than a failover by a kill may take: about 4.5 s, but each election the Sentinels
 * split on adds twice the failover-timeout (4 s), and under load killMaster once took 14.6 s. With
 * a 10 s lease, a lock taken with replica sync was once gone from the promoted master in CI. The
 * harness gives up on a failover after 30 s.
 */
const KILL_WATCHDOG_MS = 30_000;
/** Both replicas must have a lock before its acquisition returns. */
const BOTH_REPLICAS = { replicaSync: { replicas: 2, timeout: 5_000 } } as const;
/** Longer than any failover here takes: only a release can end a wait this long in time. */
const LONG_LEASE_MS = 120_000;
const WAIT_MS = 60_000;
/** How long a failover (Sentinels' agreement, clients reconnecting) may take to show in a test. */
const FAILOVER_MS = 20_000;
/**
 * The test that crashes the promoted master waits for the Sentinels' agreement three times (the
 * kill, the crash, the revival), each of which the harness gives up on after 30 s.
 */
const CRASH_TEST_MS = 120_000;
/** How long a data node may take to write its AOF's first file once AOF is switched on. */
const AOF_REWRITE_MS = 10_000;
/** What the harness starts data nodes with. */
const AOF_OFF: AofSettings = { appendonly: 'no', appendfsync: 'everysec' };

/** The AOF settings the crash test puts on every data node. */
interface AofSettings {
  readonly appendonly: 'yes' | 'no';
  readonly appendfsync: 'always' | 'everysec';
}

describe.each(SENTINEL_BACKENDS)('Lock on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(LOCK), adapter, topology);
  for (const suite of SUITES) describe(suite, () => LOCK_SUITES[suite](ctx));
  describe('executor', () => executorTests(ctx));
  describe('failover', () => failoverTests(ctx));
});

function deployment(ctx: SuiteContext): SentinelHandle {
  const sentinel = ctx.backend().sentinel;
  if (sentinel === undefined) throw new Error('not a sentinel backend');
  return sentinel;
}

/** Whether the current master has a subscriber on `channel`. */
async function masterHasSubscriber(ctx: SuiteContext, channel: string): Promise<boolean> {
  const reply = await deployment(ctx).master().command('PUBSUB', 'NUMSUB', channel);
  return Array.isArray(reply) && Number(reply[1]) > 0;
}

/** The lock's key exists on the current master with a lease left. */
async function masterHasLock(ctx: SuiteContext, name: string): Promise<boolean> {
  return Number(await deployment(ctx).master().command('PTTL', name)) > 0;
}

/**
 * Sets `settings` on every data node and records them in its config file (CONFIG REWRITE), so
 * that a restarted node starts with them, then waits until no node rewrites its AOF any more:
 * switched on, AOF counts for WAITAOF only once the node has written the AOF's first file.
 */
async function persistAof(sentinel: SentinelHandle, settings: AofSettings): Promise<void> {
  for (const node of sentinel.dataNodes) {
    await node.command('CONFIG', 'SET', 'appendonly', settings.appendonly, 'appendfsync', settings.appendfsync);
    await node.command('CONFIG', 'REWRITE');
  }
  for (const node of sentinel.dataNodes) expect(await eventually(() => aofWritten(node), AOF_REWRITE_MS)).toBe(true);
}

async function aofWritten(node: RedisNode): Promise<boolean> {
  const info = parseInfo(await node.command('INFO', 'persistence'));
  return info.get('aof_rewrite_in_progress') === '0' && info.get('aof_rewrite_scheduled') === '0';
}

/** Records what an executor reports. */
function recorder(executor: Executor): { readonly messages: Set<string>; reconnects: number } {
  const heard = { messages: new Set<string>(), reconnects: 0 };
  executor.listen({
    onMessage: (channel, message) => heard.messages.add(`${channel}=${message}`),
    onSubscriberReconnect: () => heard.reconnects++,
  });
  return heard;
}

function executorTests(ctx: SuiteContext): void {
  it('on both driver majors: the subscriber follows SENTINEL FAILOVER, and close() closes only it', async () => {
    const subscriberName = (major: number) => `deadbolt-sentinel-${major}-${process.pid}`;
    const connected: ConnectedExecutor[] = [];
    for (const major of MAJORS)
      connected.push(await ctx.backend().connect({ major, subscriberName: subscriberName(major) }));
    const heard = connected.map(({ executor }) => recorder(executor));
    const channel = ctx.uniqueName('executor-channel');
    for (const { executor } of connected) await executor.subscribe(channel, false);
    await deployment(ctx).failover();
    // Publishes on the new master until every executor heard it: one sent while a subscriber moved is lost by design.
    await vi.waitFor(
      async () => {
        await deployment(ctx).master().command('PUBLISH', channel, 'after');
        for (const one of heard) expect(one.messages).toContain(`${channel}=after`);
      },
      { timeout: FAILOVER_MS, interval: 250 },
    );
    for (const one of heard) expect(one.reconnects).toBeGreaterThan(0);
    for (const [i, major] of MAJORS.entries()) {
      await connected[i]?.executor.close();
      // The server sees a closed connection go a moment later.
      expect(await eventually(async () => (await ctx.backend().connectionsNamed(subscriberName(major))) === 0)).toBe(
        true,
      );
      expect(await connected[i]?.ping()).toBe('PONG');
      await connected[i]?.close();
    }
  });
}

function failoverTests(ctx: SuiteContext): void {
  it('wakes a waiter after SENTINEL FAILOVER: its subscription follows the new master', async () => {
    const [holder, waiter] = [await ctx.client(BOTH_REPLICAS), await ctx.client()];
    const name = ctx.uniqueName('failover-wake');
    const held = await holder.lock(name).acquire({ leaseTime: LONG_LEASE_MS });
    const waiting = waiter.lock(name).acquire({ waitTime: WAIT_MS });
    await waitersAsleep(waiter);
    const [channel] = waiter.activity().channels;
    if (channel === undefined) throw new Error('the waiter has no channel');
    await deployment(ctx).failover();
    expect(await eventually(() => masterHasSubscriber(ctx, channel), FAILOVER_MS)).toBe(true);
    // The lease outlasts the wait: only the release's message can wake the waiter in time.
    await held.release();
    const taken = await waiting;
    expect(await masterHasLock(ctx, name)).toBe(true);
    await taken.release();
  });

  it('keeps renewing on the new master after SENTINEL FAILOVER', async () => {
    const client = await ctx.client({ ...BOTH_REPLICAS, watchdogTimeout: WATCHDOG_MS });
    const name = ctx.uniqueName('failover-renew');
    const held = await client.lock(name).acquire();
    await deployment(ctx).failover();
    const ttl = () => deployment(ctx).master().command('PTTL', name).then(Number);
    const before = await ttl();
    expect(before).toBeGreaterThan(0);
    // Only a renewal on the new master can raise the lease it has.
    expect(await eventually(async () => (await ttl()) > before, 2 * WATCHDOG_MS)).toBe(true);
    expect(held.signal.reason).toBeUndefined();
    expect(await client.lock(name).isHeldBy(held.owner)).toBe(true);
    await held.release();
  });

  it('keeps a lock taken with replica sync when the master is killed', async () => {
    const [client, other] = [
      await ctx.client({ ...BOTH_REPLICAS, watchdogTimeout: KILL_WATCHDOG_MS }),
      await ctx.client(),
    ];
    const name = ctx.uniqueName('kill-synced');
    const held = await client.lock(name).acquire();
    await deployment(ctx).killMaster();
    expect(await masterHasLock(ctx, name)).toBe(true);
    expect(await other.lock(name).tryAcquire()).toBeNull();
    expect(held.signal.reason).toBeUndefined();
    // Back to two replicas, which the client waits for.
    await deployment(ctx).revive();
    await held.release();
  });

  it(
    'keeps a lock taken with replica sync and AOF on through the kill of the master, then a crash of the promoted one',
    async () => {
      const sentinel = deployment(ctx);
      const name = ctx.uniqueName('crash-synced');
      const { used, unused } = await syncCommandsWithAof(ctx, name);
      // WAITAOF returns once the replicas have fsynced the lock to their AOF. WAIT (Redis 7.0)
      // promises only their memory; with appendfsync always, though, a replica writes and fsyncs
      // what it applied before it sends anything, its acknowledgement included: then the AOF has
      // the lock before WAIT counts the replica. (A SIGKILL loses what a process has not written,
      // not what it has not fsynced: the crash below shows the write, the command counts the rest.)
      await persistAof(sentinel, { appendonly: 'yes', appendfsync: used === 'waitaof' ? 'everysec' : 'always' });
      try {
        const [client, other] = [
          await ctx.client({ ...BOTH_REPLICAS, watchdogTimeout: KILL_WATCHDOG_MS }),
          await ctx.client(),
        ];
        const before = { used: await syncCalls(ctx, name, used), unused: await syncCalls(ctx, name, unused) };
        const held = await client.lock(name).acquire({ owner: 'crash' });
        expect(await syncCalls(ctx, name, used)).toBe(before.used + 1);
        expect(await syncCalls(ctx, name, unused)).toBe(before.unused);
        const promoted = await sentinel.killMaster();
        // At once, before anything else reaches it: the promoted master crashes (SIGKILL) and
        // starts again from its config file, which Sentinel rewrote when it promoted it.
        await promoted.restart();
        // A new process, which no one replicates to: only its AOF can have given it the lock.
        expect(parseInfo(await promoted.command('INFO', 'persistence')).get('aof_enabled')).toBe('1');
        expect(await promoted.command('HGETALL', name)).toEqual([`${client.id}:crash`, '1']);
        // The Sentinels may have failed over to the other replica meanwhile, which had the lock too.
        await sentinel.waitForAgreement();
        expect(await masterHasLock(ctx, name)).toBe(true);
        expect(await other.lock(name).tryAcquire()).toBeNull();
        expect(held.signal.reason).toBeUndefined();
        // Back to two replicas, which the client waits for.
        await sentinel.revive();
        await held.release();
        expect(await masterHasLock(ctx, name)).toBe(false);
      } finally {
        // Every data node running again, so that each can be set back.
        await sentinel.revive();
        await persistAof(sentinel, AOF_OFF);
      }
    },
    CRASH_TEST_MS,
  );

  it('may lose a lock taken without replica sync when the master is killed; then its holder is told', async () => {
    const sentinel = deployment(ctx);
    const [client, other] = [await ctx.client({ watchdogTimeout: WATCHDOG_MS }), await ctx.client()];
    const name = ctx.uniqueName('kill-unsynced');
    // Frozen replicas whose links the master dropped cannot receive the lock: the one promoted
    // after the kill never had it.
    const replicas = sentinel.replicas();
    for (const replica of replicas) await replica.pause();
    await sentinel.master().command('CLIENT', 'KILL', 'TYPE', 'replica');
    const held = await client.lock(name).acquire();
    await sentinel.master().kill();
    for (const replica of replicas) await replica.resume();
    await sentinel.killMaster();
    expect(await masterHasLock(ctx, name)).toBe(false);
    expect(await eventually(() => held.signal.aborted, FAILOVER_MS)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    const taken = await other.lock(name).acquire({ waitTime: FAILOVER_MS });
    await taken.release();
    await sentinel.revive();
  });
}
