// The instrumentation on real servers, each adapter over each topology: the events of real
// acquisitions, holds, waits, renewals and losses become the metrics and spans the SDK's
// in-memory reader and exporter read back.
import { createHash } from 'node:crypto';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, metrics, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BACKENDS,
  eventually,
  RENEWED_WATCHDOG_MS,
  sleep,
  useBackendContext,
  waitersAsleep,
} from '@deadbolt/conformance';
import { ClientClosedError, LockWaitTimeoutError, type LockClient, type LockClientEvents } from '@deadbolt/core';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import {
  ATTR_LOCK_KIND,
  ATTR_LOCK_LOSS_REASON,
  ATTR_LOCK_NAME,
  ATTR_LOCK_OUTCOME,
  instrumentLockClient,
  INSTRUMENTATION_SCOPE,
  LOCK_METRICS,
  type LockInstrumentationOptions,
} from '../src/index.js';
import { durationMs, telemetry, type Telemetry } from './telemetry.js';

const EVENTS: readonly (keyof LockClientEvents)[] = [
  'acquired',
  'released',
  'waitStarted',
  'waitEnded',
  'renewed',
  'lockLost',
  'handledError',
];
const listeners = (client: LockClient) => EVENTS.map((event) => client.listenerCount(event));
const lock = { [ATTR_LOCK_KIND]: 'lock' };
const outcome = (value: string) => ({ ...lock, [ATTR_LOCK_OUTCOME]: value });
const scope = `${INSTRUMENTATION_SCOPE}@${packageJson.version}`;

// Runs `fn` with an async context manager, so that the active span follows async calls.
async function withContextManager(fn: () => Promise<void>): Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  try {
    await fn();
  } finally {
    context.disable();
  }
}

describe.each(BACKENDS)('instrumentLockClient on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);

  async function instrumented(
    options: LockInstrumentationOptions = {},
    clientOptions = {},
  ): Promise<{ client: LockClient; seen: Telemetry }> {
    const seen = telemetry();
    const client = await ctx.client(clientOptions);
    instrumentLockClient(client, {
      meterProvider: seen.meterProvider,
      tracerProvider: seen.tracerProvider,
      ...options,
    });
    return { client, seen };
  }

  it('waits taken, timed out and aborted: wait durations and acquisitions by outcome, one span each', async () => {
    const { client, seen } = await instrumented();
    const holder = await ctx.client();
    const name = ctx.uniqueName('waits');
    const held = await holder.lock(name).acquire();
    await expect(client.lock(name).acquire({ waitTime: 60 })).rejects.toBeInstanceOf(LockWaitTimeoutError);
    await expect(client.lock(name).acquire({ signal: AbortSignal.timeout(60) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    const taking = client.lock(name).acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    await held.release();
    await (await taking).release();

    for (const value of ['taken', 'timed_out', 'aborted'])
      expect(await seen.sum(LOCK_METRICS.acquisitions, outcome(value))).toBe(1);
    expect((await seen.histogram(LOCK_METRICS.waitDuration, outcome('timed_out')))?.sum).toBeGreaterThanOrEqual(0.05);
    expect((await seen.histogram(LOCK_METRICS.waitDuration, outcome('taken')))?.sum).toBeGreaterThanOrEqual(0.05);
    const acquisitions = seen.spansNamed('deadbolt.acquire lock');
    expect(acquisitions.map((span) => span.attributes)).toEqual(['timed_out', 'aborted', 'taken'].map(outcome));
    expect(acquisitions.map((span) => span.status.code)).toEqual([
      SpanStatusCode.UNSET,
      SpanStatusCode.UNSET,
      SpanStatusCode.UNSET,
    ]);
    // Started at the call, not at the event: the span covers the wait.
    expect(durationMs(acquisitions[0]!)).toBeGreaterThanOrEqual(50);
    expect(durationMs(acquisitions[2]!)).toBeGreaterThanOrEqual(50);
  });

  it('a failed wait is an acquisition span with an error status and error.type, and no exception event', async () => {
    const { client, seen } = await instrumented();
    const holder = await ctx.client();
    const name = ctx.uniqueName('failed');
    const held = await holder.lock(name).acquire();
    const waiting = client.lock(name).acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    // Expected before the close rejects it, or the rejection is unhandled while close runs.
    const closedOut = expect(waiting).rejects.toBeInstanceOf(ClientClosedError);
    await client.close();
    await closedOut;
    await held.release();
    const failed = { ...outcome('failed'), 'error.type': 'ClientClosedError' };
    expect(await seen.sum(LOCK_METRICS.acquisitions, failed)).toBe(1);
    expect((await seen.histogram(LOCK_METRICS.waitDuration, failed))?.count).toBe(1);
    const [span] = seen.spansNamed('deadbolt.acquire lock');
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'The lock client is closed' });
    expect(span?.attributes['error.type']).toBe('ClientClosedError');
    expect(span?.events).toEqual([]);
  });

  it('holds: held goes up and down, hold durations, re-entered holds end last-in-first-out, each linked to its acquisition', async () => {
    const { client, seen } = await instrumented();
    const handle = client.lock(ctx.uniqueName('holds'));
    const outer = await handle.acquire({ owner: 'job' });
    const inner = await handle.acquire({ owner: 'job' });
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(2);
    await sleep(30);
    await inner.release();
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(1);
    await sleep(30);
    await outer.release();
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(0);

    const hist = await seen.histogram(LOCK_METRICS.holdDuration, lock);
    expect(hist?.count).toBe(2);
    expect(hist?.sum).toBeGreaterThanOrEqual(0.09);
    const [outerAcquisition, innerAcquisition] = seen.spansNamed('deadbolt.acquire lock');
    const [innerHold, outerHold] = seen.spansNamed('deadbolt.hold lock');
    expect(innerHold?.links.map((link) => link.context.spanId)).toEqual([innerAcquisition?.spanContext().spanId]);
    expect(outerHold?.links.map((link) => link.context.spanId)).toEqual([outerAcquisition?.spanContext().spanId]);
    expect(durationMs(outerHold!)).toBeGreaterThanOrEqual(55);
    expect(durationMs(innerHold!)).toBeGreaterThanOrEqual(25);
    expect(outerHold?.attributes).toEqual(lock);
  });

  it('the watchdog: renewed holds are counted, and each batch round trip in seconds', async () => {
    const { client, seen } = await instrumented({}, { watchdogTimeout: RENEWED_WATCHDOG_MS });
    const held = await client.lock(ctx.uniqueName('renewed')).acquire();
    expect(await eventually(async () => (await seen.sum(LOCK_METRICS.renewals, {})) >= 2, 2_000)).toBe(true);
    const roundTrips = await seen.histogram(LOCK_METRICS.renewalDuration, {});
    expect(roundTrips?.count).toBeGreaterThanOrEqual(2);
    // Seconds: a local round trip is well under one.
    expect(roundTrips?.sum).toBeGreaterThan(0);
    expect(roundTrips?.sum).toBeLessThan(roundTrips!.count);
    await held.release();
    expect(await seen.series(LOCK_METRICS.losses)).toEqual([]);
  });

  it('a lost lock: counted as lost, gone, and no longer held, its hold span ends with an error', async () => {
    const { client, seen } = await instrumented({}, { watchdogTimeout: 300 });
    const handle = client.lock(ctx.uniqueName('lost'));
    const held = await handle.acquire();
    await handle.forceUnlock();
    const gone = { ...lock, [ATTR_LOCK_LOSS_REASON]: 'gone' };
    expect(await eventually(async () => (await seen.sum(LOCK_METRICS.losses, gone)) === 1, 2_000)).toBe(true);
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(0);
    const [hold] = seen.spansNamed('deadbolt.hold lock');
    expect(hold?.status.code).toBe(SpanStatusCode.ERROR);
    expect(hold?.attributes['error.type']).toBe('LockLostError');
    expect(hold?.events).toEqual([]);
    expect(hold?.links).toHaveLength(1);
    await held.release().catch(() => undefined);
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(0);
    expect(seen.spansNamed('deadbolt.hold lock')).toHaveLength(1);
  });

  it('a fixed lease that runs out under its holder: counted as lost with reason lease_ended and no longer held, its hold span ended without an error', async () => {
    const { client, seen } = await instrumented();
    const held = await client.lock(ctx.uniqueName('lease-ran-out')).acquire({ leaseTime: 150 });
    const ended = { ...lock, [ATTR_LOCK_LOSS_REASON]: 'lease_ended' };
    expect(await eventually(async () => (await seen.sum(LOCK_METRICS.losses, ended)) === 1, 2_000)).toBe(true);
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(0);
    const [span] = seen.spansNamed('deadbolt.hold lock');
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
    expect(span?.attributes[ATTR_LOCK_LOSS_REASON]).toBe('lease_ended');
    expect(span?.attributes['error.type']).toBeUndefined();
    await held.release().catch(() => undefined);
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(0);
  });

  it('held goes back down on every end of a hold: one its release finds gone, one its client closes on', async () => {
    const { client, seen } = await instrumented();
    const handle = client.lock(ctx.uniqueName('ends'));
    const forced = await handle.acquire();
    await handle.forceUnlock();
    await forced.release().catch(() => undefined);
    expect(await seen.sum(LOCK_METRICS.losses, { ...lock, [ATTR_LOCK_LOSS_REASON]: 'gone' })).toBe(1);
    await handle.acquire();
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(1);
    await client.close();
    expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(0);
    expect(await seen.sum(LOCK_METRICS.losses, { ...lock, [ATTR_LOCK_LOSS_REASON]: 'client_closed' })).toBe(1);
  });

  it('waiting: the acquisitions waiting now, by kind, up while they wait and down when they end', async () => {
    const { client, seen } = await instrumented();
    const holder = await ctx.client();
    const name = ctx.uniqueName('waiting');
    const held = await holder.lock(name).acquire();
    const first = client.lock(name).acquire({ waitTime: 10_000 });
    const second = client.lock(name).acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    expect(await seen.sum(LOCK_METRICS.waiting, lock)).toBe(2);
    await held.release();
    await (await first).release();
    await (await second).release();
    expect(await seen.sum(LOCK_METRICS.waiting, lock)).toBe(0);
    await expect(client.lock(name).tryAcquire()).resolves.not.toBeNull();
    expect(await seen.sum(LOCK_METRICS.waiting, lock)).toBe(0);
  });

  it('the meter and the tracer carry the package version', async () => {
    const { client, seen } = await instrumented();
    await (await client.lock(ctx.uniqueName('version')).acquire()).release();
    expect(await seen.meterScopes()).toEqual([scope]);
    const scopes = seen
      .spans()
      .map(({ instrumentationScope }) => `${instrumentationScope.name}@${instrumentationScope.version}`);
    expect(new Set(scopes)).toEqual(new Set([scope]));
  });

  it('instrumented before the SDK starts: metrics recorded once the global meter provider is set arrive, and held stays right', async () => {
    const seen = telemetry();
    const client = await ctx.client();
    // The global providers, as an app that instruments its clients before starting its SDK.
    instrumentLockClient(client, { tracerProvider: seen.tracerProvider });
    const handle = client.lock(ctx.uniqueName('late-sdk'));
    await (await handle.acquire()).release();
    const early = await handle.acquire();
    metrics.setGlobalMeterProvider(seen.meterProvider);
    try {
      await (await client.lock(ctx.uniqueName('after')).acquire()).release();
      expect(await seen.sum(LOCK_METRICS.acquisitions, outcome('taken'))).toBe(1);
      expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(1);
      await early.release();
      expect(await seen.sum(LOCK_METRICS.held, lock)).toBe(0);
      expect((await seen.histogram(LOCK_METRICS.holdDuration, lock))?.count).toBe(2);
    } finally {
      metrics.disable();
    }
  });

  it('inHoldSpan makes the hold span active: spans started in the withLock callback are its children', async () => {
    const { client, seen } = await instrumented();
    const telemetryOf = instrumentLockClient(client, { metrics: false, tracerProvider: seen.tracerProvider });
    const tracer = seen.tracerProvider.getTracer('test');
    const handle = client.lock(ctx.uniqueName('active'));
    await withContextManager(async () => {
      await handle.withLock((_signal, held) =>
        telemetryOf.inHoldSpan(held, () => tracer.startActiveSpan('inside', async (span) => span.end())),
      );
      await handle.withLock(async () => tracer.startActiveSpan('outside', async (span) => span.end()));
    });
    telemetryOf.stop();
    const [inside] = seen.spansNamed('inside');
    const [outside] = seen.spansNamed('outside');
    // Two instrumentations on one client: the one inHoldSpan was asked of holds the parent.
    const holdIds = seen.spansNamed('deadbolt.hold lock').map((span) => span.spanContext().spanId);
    expect(holdIds).toContain(inside?.parentSpanContext?.spanId);
    expect(outside?.parentSpanContext).toBeUndefined();
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it('lock names: dropped by default, hashed stably, grouped by a function', async () => {
    const runs = { drop: await instrumented(), hash: await instrumented({ lockNames: 'hash' }) };
    const grouped = await instrumented({ lockNames: (name) => name.replace(/:\d+$/, '') });
    const prefix = ctx.uniqueName('orders');
    for (const { client } of [runs.drop, runs.hash, grouped]) {
      for (const id of [1, 2]) await (await client.lock(`${prefix}:${id}`).acquire()).release();
    }
    expect(await runs.drop.seen.series(LOCK_METRICS.acquisitions)).toEqual([outcome('taken')]);
    expect(runs.drop.seen.spans().every((span) => !(ATTR_LOCK_NAME in span.attributes))).toBe(true);
    const hashOf = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 12);
    expect(await runs.hash.seen.series(LOCK_METRICS.acquisitions)).toEqual(
      [1, 2].map((id) => ({ ...outcome('taken'), [ATTR_LOCK_NAME]: hashOf(`${prefix}:${id}`) })),
    );
    expect(await grouped.seen.sum(LOCK_METRICS.acquisitions, { ...outcome('taken'), [ATTR_LOCK_NAME]: prefix })).toBe(
      2,
    );
    expect(grouped.seen.spansNamed('deadbolt.hold lock').map((span) => span.attributes[ATTR_LOCK_NAME])).toEqual([
      prefix,
      prefix,
    ]);
  });

  it('stop() and dispose take off every listener they added; metrics or traces alone listen to less', async () => {
    const client = await ctx.client();
    const { stop } = instrumentLockClient(client);
    expect(listeners(client)).toEqual([1, 1, 1, 2, 1, 1, 1]);
    stop();
    stop();
    expect(listeners(client)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    {
      using _traced = instrumentLockClient(client, { metrics: false });
      expect(listeners(client)).toEqual([1, 1, 0, 1, 0, 1, 0]);
    }
    expect(listeners(client)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    instrumentLockClient(client, { metrics: false, traces: false });
    expect(listeners(client)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('spans are children of the context active around the acquisition, with a context manager', async () => {
    const { client, seen } = await instrumented();
    const tracer = seen.tracerProvider.getTracer('test');
    await withContextManager(() =>
      tracer.startActiveSpan('request', async (request) => {
        await (await client.lock(ctx.uniqueName('parent')).acquire()).release();
        request.end();
      }),
    );
    const [request] = seen.spansNamed('request');
    const children = seen.spans().filter((span) => span.name.startsWith('deadbolt.'));
    expect(children.map((span) => span.parentSpanContext?.spanId)).toEqual([
      request?.spanContext().spanId,
      request?.spanContext().spanId,
    ]);
  });
});
