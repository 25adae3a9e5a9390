// Latch requests that arrive twice, or late (issue 30), for real: the driver talks to Redis through
// the harness's fault proxies, which cut a request after Redis ran it (ioredis then re-sends it
// once it has reconnected, after any delay; node-redis and Valkey GLIDE reject it), or let it run
// and keep a copy that the test delivers later on the old connection, as a slow network would.
// Every latch request runs once and never past its deadline (the client's estimate of the
// server's time at the send, plus commandTimeout): a copy before the deadline finds its record
// and answers the first outcome, one after it is refused. The latch is read from Redis directly.
import { BACKENDS, backendProxies, eventually, sleep, useBackendContext } from '@deadbolt/conformance';
import { LockClient } from '@deadbolt/core';
import type { ProxyGroup } from '@deadbolt/test-harness';
import { afterEach, describe, expect, it } from 'vitest';
import { CountDownLatch } from '../src/index.js';

/** The command timeout of the proxied clients: a request's deadline is about this long after it is sent. */
const COMMAND_TIMEOUT_MS = 1_000;
/**
 * Past any request's deadline: the deadline is commandTimeout after the send, plus the client's
 * estimate of the server's clock, which errs late by at most the probe's round trip (under
 * commandTimeout).
 */
const PAST_THE_DEADLINE_MS = 3_500;

const swallow = (promise: Promise<unknown>): Promise<void> =>
  promise.then(
    () => undefined,
    () => undefined,
  );

let latches = 0;

describe.each(BACKENDS)(
  'CountDownLatch requests that arrive twice or late, on $adapter/$topology through fault proxies',
  ({ adapter, topology }) => {
    const ctx = useBackendContext(adapter, topology, { dedicated: true });
    const clients: LockClient[] = [];

    /** The fault proxies in front of the backend, started on first use. */
    const group = async (): Promise<ProxyGroup> => (await backendProxies(ctx.backend())).proxies;

    afterEach(async () => {
      const proxies = await group();
      proxies.clearRules();
      proxies.heal();
      await Promise.all(clients.splice(0).map((client) => client.close()));
    });

    /** A latch on a client whose driver connects through the proxies, every script it changes the latch with run once. */
    async function proxiedLatch(label: string): Promise<CountDownLatch> {
      const client = new LockClient(await ctx.backend().createExecutor({ proxied: true }), {
        commandTimeout: COMMAND_TIMEOUT_MS,
      });
      clients.push(client);
      const latch = new CountDownLatch(client, `latch-resend:${label}:${process.pid}:${++latches}`);
      // So that the request a test cuts is the one it means, not an EVALSHA Redis answered NOSCRIPT.
      await latch.trySetCount(1);
      await latch.countDown();
      await latch.delete();
      return latch;
    }

    /** The latch's count as Redis holds it; null when it has none. */
    const stored = (latch: CountDownLatch) => ctx.backend().command(['GET', latch.name], latch.name);

    /** Waits until the proxied client answers again: any re-send on its connection has run by then. */
    async function untilAnswered(latch: CountDownLatch): Promise<void> {
      const answered = await eventually(
        () =>
          latch.getCount().then(
            () => true,
            () => false,
          ),
        15_000,
        50,
      );
      expect(answered, 'the proxied client answers again').toBe(true);
    }

    /** Lets the next script call on the latch run, swallows its reply and keeps a copy of it for a late delivery. */
    async function duplicateNext(latch: CountDownLatch) {
      return (await group()).holdRequest({ marker: latch.name, commands: ['EVALSHA', 'EVAL'], duplicate: true });
    }

    it('a countDown re-sent after a partition longer than its deadline counts once', async () => {
      const latch = await proxiedLatch('partition');
      await latch.trySetCount(2);
      const cut = (await group()).cutAfterRequest({
        marker: latch.name,
        commands: ['EVALSHA', 'EVAL'],
        partitionMs: PAST_THE_DEADLINE_MS,
      });
      await swallow(latch.countDown());
      await cut.until((rule) => rule.cut === 1, 'the countdown was cut');
      await (await group()).whenHealed();
      await untilAnswered(latch);
      expect(await stored(latch)).toBe('1');
    });

    it('a countDown delivered late counts once: a copy before its deadline answers the first outcome, one after it is refused', async () => {
      const latch = await proxiedLatch('late');
      await latch.trySetCount(3);
      const early = await duplicateNext(latch);
      await swallow(latch.countDown());
      await early.until((rule) => rule.held === 1, 'the countdown is held');
      expect((await early.deliver()).map(String)).toEqual([':2\r\n']);
      await untilAnswered(latch);
      expect(await stored(latch)).toBe('2');
      const late = await duplicateNext(latch);
      await swallow(latch.countDown());
      await late.until((rule) => rule.held === 1, 'the countdown is held');
      await sleep(PAST_THE_DEADLINE_MS);
      expect(String((await late.deliver())[0])).toMatch(/^-DEADBOLT_LATE /);
      await untilAnswered(latch);
      expect(await stored(latch)).toBe('1');
    });

    it('a trySetCount delivered after the latch reached zero and was deleted sets nothing, before its deadline or after', async () => {
      const latch = await proxiedLatch('set-late');
      const direct = new CountDownLatch(await ctx.client(), latch.name);
      for (const wait of [0, PAST_THE_DEADLINE_MS]) {
        const hold = await duplicateNext(latch);
        await swallow(latch.trySetCount(1));
        await hold.until((rule) => rule.held === 1, 'the trySetCount is held');
        await untilAnswered(latch);
        await direct.countDown();
        expect(await stored(latch)).toBeNull();
        await sleep(wait);
        await hold.deliver();
        expect(await stored(latch)).toBeNull();
      }
    });

    it('a delete delivered late does not delete a latch set since, before its deadline or after', async () => {
      const latch = await proxiedLatch('delete-late');
      const direct = new CountDownLatch(await ctx.client(), latch.name);
      for (const wait of [0, PAST_THE_DEADLINE_MS]) {
        await direct.trySetCount(2);
        const hold = await duplicateNext(latch);
        await swallow(latch.delete());
        await hold.until((rule) => rule.held === 1, 'the delete is held');
        await untilAnswered(latch);
        expect(await direct.trySetCount(3)).toBe(true);
        await sleep(wait);
        await hold.deliver();
        expect(await stored(latch)).toBe('3');
        await direct.delete();
      }
    });
  },
);
