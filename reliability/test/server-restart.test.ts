// A standalone server SIGKILLed and restarted while locks of every kind are held and waited for,
// in the test process: restarted with its data (append-only file), holders keep their locks; restarted
// empty, holders learn they lost them. Either way waiters recover without hanging, every error is
// typed, nothing is rejected unhandled, and no renewal, wait or subscription is left behind.
import { eventually, useBackendContext, type BackendContext } from '@deadbolt/conformance';
import { LockLostError, RedisUnavailableError } from '@deadbolt/core';
import { sleep } from '@deadbolt/test-harness';
import { describe, expect, it } from 'vitest';
import { useNoUnhandledRejections } from '../src/checks/unhandledRejections.js';
import { Contention, type WaitOutcome } from '../src/contention/Contention.js';
import { expectContentionHeld, expectHoldersKept } from '../src/contention/expectContentionHeld.js';
import { FaultLog, type FaultType } from '../src/faults/FaultLog.js';
import { PERSISTENT_SERVER_ARGS, restartEmpty, restartWithData } from '../src/faults/serverFaults.js';
import { subjectsOn } from '../src/kinds.js';
import { backendsOn } from '../src/suite/backends.js';

// The watchdog renews every 1.7 s and gives up a second before the lease ends: a restart with
// its reconnect must fit in between.
const CLIENT_OPTIONS = { watchdogTimeout: 5_000, commandTimeout: 2_000 };
const DOWN_MS = 500;
// Time for the waiters to make their first attempt and subscribe before the fault.
const SETTLE_MS = 300;
const WAIT_TIME = 30_000;

describe.each(backendsOn('standalone'))('server restart on $adapter/standalone', ({ adapter }) => {
  useNoUnhandledRejections();
  const subjects = subjectsOn('standalone');

  const contend = (ctx: BackendContext) =>
    Contention.start(ctx, { subjects, clientOptions: CLIENT_OPTIONS, waitersPerLock: 3, waitTime: WAIT_TIME });

  const finish = async (
    ctx: BackendContext,
    contention: Contention,
    outcomes: readonly WaitOutcome[],
    fault: FaultType,
  ) => {
    const faults = new FaultLog();
    faults.record(fault);
    await expectContentionHeld(import.meta.url, ctx, contention, outcomes, faults, {
      // Restarted empty, the holder's locks were gone while it still held them.
      kept: () => fault === 'redis restart with data',
      // A waiter whose TTL ran out while the server was down tried in vain.
      waitErrors: [RedisUnavailableError.name],
    });
  };

  describe('with its data', () => {
    const ctx = useBackendContext(adapter, 'standalone', { dedicated: true, serverArgs: PERSISTENT_SERVER_ARGS });

    it('holders keep their locks through the restart and waiters get them once released', async () => {
      const contention = await contend(ctx);
      await sleep(SETTLE_MS);
      await restartWithData(ctx.backend(), DOWN_MS);
      // Only renewals can keep the locks past a lease.
      await expectHoldersKept(contention, CLIENT_OPTIONS.watchdogTimeout);
      const outcomes = await contention.settled();
      await finish(ctx, contention, outcomes, 'redis restart with data');
    });
  });

  describe('empty', () => {
    const ctx = useBackendContext(adapter, 'standalone', { dedicated: true });

    it('holders learn they lost their locks and waiters take them', async () => {
      const contention = await contend(ctx);
      await sleep(SETTLE_MS);
      await restartEmpty(ctx.backend(), DOWN_MS);
      const outcomes = await contention.settled();
      for (const { held, subject } of contention.holds) {
        expect(
          await eventually(() => held.signal.aborted, 10_000),
          `${subject.label} holder told it lost its lock`,
        ).toBe(true);
        expect(held.signal.reason).toBeInstanceOf(LockLostError);
      }
      expect(await contention.releaseHolds()).toEqual(contention.holds.map(() => LockLostError.name));
      await finish(ctx, contention, outcomes, 'redis restart empty');
    });
  });
});
