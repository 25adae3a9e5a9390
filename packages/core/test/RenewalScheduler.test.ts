import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientClosedError, LockLostError } from '../src/errors/LockError.js';
import type { CommandArguments, Executor, ScriptArgument } from '../src/executor/Executor.js';
import { renewBatchCommand } from '../src/commands/renewBatch.js';
import type { Call } from '../src/scripts/Command.js';
import { defineScript } from '../src/scripts/Script.js';
import { ScriptRunner } from '../src/scripts/ScriptRunner.js';
import { RenewalScheduler, type RenewalTarget } from '../src/watchdog/RenewalScheduler.js';

// The watchdog's timing logic on fake timers and a fake executor: which leases its batches carry,
// when it tells a holder, and that each hold stands on its own. Real renewals against Redis are
// in the conformance suite.

const LEASE = 3_000;
const command = renewBatchCommand(defineScript('test/renew', 'return {}'));

interface RenewalCall {
  readonly keys: readonly string[];
  readonly args: readonly ScriptArgument[];
  readonly reply: (renewed: readonly number[]) => void;
  readonly fail: (error: Error) => void;
}

/** An executor whose script calls wait until the test answers them. */
function fakeExecutor(calls: RenewalCall[]): Executor {
  const unused = () => Promise.reject(new Error('not used by the watchdog'));
  // The first call of a script goes in full, later ones by digest: both are renewal calls here.
  const call = (_script: string, keys: readonly string[], args: readonly ScriptArgument[]) =>
    new Promise((resolve, reject) => calls.push({ keys, args, reply: resolve, fail: reject }));
  return {
    isCluster: false,
    evalsha: call,
    eval: call,
    command: (_key: string, _args: CommandArguments) => unused(),
    subscribe: unused,
    unsubscribe: unused,
    listen: () => undefined,
    close: () => Promise.resolve(),
  };
}

function target(key: string, hold: string): RenewalTarget {
  return { command, name: key, field: `client:${hold}`, hold };
}

describe('RenewalScheduler', () => {
  let calls: RenewalCall[];
  let scheduler: RenewalScheduler;
  const batches: { holds: number; lost: number; tookMs: number }[] = [];
  const failures: unknown[] = [];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    calls = [];
    batches.length = 0;
    failures.length = 0;
    const runner = new ScriptRunner(fakeExecutor(calls), 60_000);
    // Renewal commands use no publish command, record TTL or clock from the context; the fake
    // executor ignores the deadline.
    const run = async (batch: Call<boolean[]>) =>
      batch.decode(
        await runner.run(
          batch.script,
          batch.keys,
          batch.args({ publish: 'publish', recordTtl: 0, now: 0, deadline: 0 }),
        ),
      );
    scheduler = new RenewalScheduler(run, {
      lease: LEASE,
      isCluster: false,
      onBatch: {
        renewed: (holds, lostHolds, tookMs) => batches.push({ holds, lost: lostHolds, tookMs }),
        failed: (error) => failures.push(error),
      },
    });
  });
  afterEach(() => {
    scheduler.stop();
    vi.useRealTimers();
  });

  it('renews every third of the lease, one call for all holds, each hold named by its id', async () => {
    scheduler.register(target('a', 'h1'), () => undefined, performance.now());
    scheduler.register(target('a', 'h2'), () => undefined, performance.now());
    expect(scheduler.size).toBe(2);
    await vi.advanceTimersByTimeAsync(LEASE / 3);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.keys).toEqual(['a', 'a']);
    expect(calls[0]?.args).toEqual([LEASE, 0, 'client:h1', 'h1', 'client:h2', 'h2']);
  });

  it('tells only the hold that is gone, and keeps renewing the other hold of the same owner', async () => {
    const told: string[] = [];
    scheduler.register(target('a', 'h1'), () => told.push('h1'), performance.now());
    scheduler.register(target('a', 'h2'), () => told.push('h2'), performance.now());
    await vi.advanceTimersByTimeAsync(LEASE / 3);
    calls[0]?.reply([0, 1]);
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toEqual(['h1']);
    expect(scheduler.size).toBe(1);
    await vi.advanceTimersByTimeAsync(LEASE / 3);
    expect(calls[1]?.args).toEqual([LEASE, 0, 'client:h2', 'h2']);
  });

  it('reports each batch: how many holds it asked for, how many were gone, how long it took; and a batch that failed', async () => {
    scheduler.register(target('a', 'h1'), () => undefined, performance.now());
    scheduler.register(target('a', 'h2'), () => undefined, performance.now());
    await vi.advanceTimersByTimeAsync(LEASE / 3);
    await vi.advanceTimersByTimeAsync(7);
    calls[0]?.reply([1, 0]);
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toEqual([{ holds: 2, lost: 1, tookMs: 7 }]);
    await vi.advanceTimersByTimeAsync(LEASE / 3);
    const unreachable = new Error('connection lost');
    calls[1]?.fail(unreachable);
    await vi.advanceTimersByTimeAsync(0);
    expect(failures).toEqual([expect.objectContaining({ name: 'RedisUnavailableError', cause: unreachable })]);
    expect(batches).toHaveLength(1);
  });

  it('guards a fixed lease up to its end and never beyond', async () => {
    const start = performance.now();
    scheduler.register(target('a', 'fixed'), () => undefined, start, start + 5_000);
    scheduler.register(target('b', 'watchdog'), () => undefined, start);
    const sent: { at: number; lease: number; keys: readonly string[] }[] = [];
    for (let tick = 0; tick < 8; tick++) {
      await vi.advanceTimersByTimeAsync(LEASE / 3);
      for (const call of calls.splice(0)) {
        sent.push({ at: performance.now() - start, lease: Number(call.args[0]), keys: call.keys });
        call.reply(call.keys.map(() => 1));
      }
    }
    const guarded = sent.filter((call) => call.keys.includes('a'));
    expect(guarded.length).toBeGreaterThan(0);
    // Each renewal of the fixed lease reaches exactly its end, and none is sent after it.
    for (const call of guarded) expect(call.at + Math.min(call.lease, LEASE)).toBeLessThanOrEqual(5_000);
    expect(guarded.some((call) => call.at + call.lease === 5_000)).toBe(true);
    expect(sent.filter((call) => call.at >= 5_000).every((call) => !call.keys.includes('a'))).toBe(true);
    expect(sent.filter((call) => call.keys.includes('b')).every((call) => call.lease === LEASE)).toBe(true);
  });

  it('does not give up on a guarded hold while its own lease lasts, when Redis cannot be reached', async () => {
    const start = performance.now();
    let guardedLost = false;
    let watchdogLost = false;
    scheduler.register(target('a', 'fixed'), () => (guardedLost = true), start, start + 10_000);
    scheduler.register(target('b', 'watchdog'), () => (watchdogLost = true), start);
    await vi.advanceTimersByTimeAsync(LEASE / 3);
    for (const call of calls.splice(0)) call.fail(new Error('connection lost'));
    // The watchdog hold's lease (3 s) ends before the guarded one's (10 s).
    await vi.advanceTimersByTimeAsync(LEASE);
    for (const call of calls.splice(0)) call.fail(new Error('connection lost'));
    await vi.advanceTimersByTimeAsync(0);
    expect(watchdogLost).toBe(true);
    expect(guardedLost).toBe(false);
    await vi.advanceTimersByTimeAsync(7_000);
    for (const call of calls.splice(0)) call.fail(new Error('connection lost'));
    await vi.advanceTimersByTimeAsync(0);
    expect(guardedLost).toBe(true);
  });

  it('tells a hold whose renewal call hangs before its lease ends', async () => {
    let error: LockLostError | undefined;
    scheduler.register(target('a', 'h1'), (reason) => (error = reason), performance.now());
    await vi.advanceTimersByTimeAsync(LEASE / 3);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(LEASE - LEASE / 3 - 1);
    expect(error).toBeInstanceOf(LockLostError);
  });

  it('refuses a registration once stopped, with ClientClosedError', () => {
    scheduler.stop();
    expect(() => scheduler.register(target('a', 'h1'), () => undefined, performance.now())).toThrow(ClientClosedError);
  });
});
