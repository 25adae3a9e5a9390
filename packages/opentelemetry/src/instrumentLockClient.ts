import { context, metrics as globalMetrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import type { LockClient, LockClientEvents } from '@deadbolt/core';
import { lockAttributes, outcomeOf } from './attributes.js';
import { HoldBook } from './HoldBook.js';
import { LockMetrics } from './LockMetrics.js';
import { epochNow, LockSpans } from './LockSpans.js';
import { lockNameMapper, type LockNameMapper, type LockNamePolicy } from './lockNames.js';

/** Options of {@link instrumentLockClient}. */
export interface LockInstrumentationOptions {
  /** Where the metrics go; the global meter provider of `@opentelemetry/api` by default. */
  readonly meterProvider?: MeterProvider;
  /** Where the spans go; the global tracer provider of `@opentelemetry/api` by default. */
  readonly tracerProvider?: TracerProvider;
  /** What the telemetry says of lock names; `'drop'` (no name attribute) by default. See {@link LockNamePolicy}. */
  readonly lockNames?: LockNamePolicy;
  /** Record the metrics of {@link LOCK_METRICS}; `true` by default. */
  readonly metrics?: boolean;
  /** Record acquisition and hold spans; `true` by default. */
  readonly traces?: boolean;
}

/** What {@link instrumentLockClient} returns: stop it to take its listeners off the client. */
export interface LockInstrumentation {
  /** Removes every listener the instrumentation added to the client; idempotent. Spans of holds still open are not recorded. */
  readonly stop: () => void;
  /** {@link LockInstrumentation.stop}, for `using`. */
  [Symbol.dispose](): void;
}

/** The instrumentation scope of the meter and the tracer. */
export const INSTRUMENTATION_SCOPE = '@deadbolt/opentelemetry';

// Spelled as Node's typed EventEmitter spells its listeners, so that `client.on` takes one generically.
type Listener<Event extends keyof LockClientEvents> = Event extends keyof LockClientEvents
  ? LockClientEvents[Event] extends unknown[]
    ? (...payload: LockClientEvents[Event]) => void
    : never
  : never;

/**
 * Turns a {@link LockClient}'s events into OpenTelemetry metrics ({@link LOCK_METRICS}) and spans
 * (`deadbolt.acquire <kind>` per acquisition, `deadbolt.hold <kind>` per hold, linked to its
 * acquisition). Call it once per client, before the locks are used: a hold granted earlier is not
 * counted as held, and its span has no link.
 *
 * The spans are recorded from the events after the fact, with start times computed from the
 * events' durations. Their parent is the context active when the lock was acquired (with a
 * context manager that follows async calls, the span around your `acquire` call), but they are
 * never made active themselves: the work your code does while holding a lock is not their child.
 *
 * @param client - the lock client to observe
 * @param options - where the telemetry goes, and what it says of lock names
 * @returns a handle whose `stop()` (or `using`) takes every listener off the client
 */
export function instrumentLockClient(
  client: LockClient,
  options: LockInstrumentationOptions = {},
): LockInstrumentation {
  const lockName = lockNameMapper(options.lockNames ?? 'drop');
  const meter =
    options.metrics === false
      ? undefined
      : (options.meterProvider ?? globalMetrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE);
  const tracer =
    options.traces === false
      ? undefined
      : (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
  const removals: (() => void)[] = [];
  const listen = <Event extends keyof LockClientEvents>(event: Event, listener: Listener<Event>): void => {
    client.on(event, listener);
    removals.push(() => client.off(event, listener));
  };
  const lockMetrics = meter && new LockMetrics(meter);
  const spans = tracer && new LockSpans(tracer);
  if (lockMetrics || spans) listenToLocks(listen, new HoldBook(client.id), lockName, lockMetrics, spans);
  if (lockMetrics) listenToWatchdog(listen, lockMetrics);
  const stop = () => {
    for (const remove of removals.splice(0)) remove();
  };
  return { stop, [Symbol.dispose]: stop };
}

type Listen = <Event extends keyof LockClientEvents>(event: Event, listener: Listener<Event>) => void;

// Acquisitions, holds and losses, for the metrics and the spans alike.
function listenToLocks(
  listen: Listen,
  book: HoldBook,
  lockName: LockNameMapper,
  metrics: LockMetrics | undefined,
  spans: LockSpans | undefined,
): void {
  listen('acquired', ({ name, kind, owner, waitedMs }) => {
    const attributes = lockAttributes(lockName, name, kind);
    metrics?.acquisition('taken', waitedMs, attributes);
    const acquisition = spans?.acquisition(kind, 'taken', waitedMs, attributes);
    book.add({ name, owner, kind, attributes, grantedAt: epochNow(), context: context.active(), acquisition });
  });
  // A taken wait is followed by its `acquired` event at once, which records it.
  listen('waitEnded', ({ name, kind, waitedMs, outcome, error }) => {
    if (outcome === 'taken') return;
    const attributes = lockAttributes(lockName, name, kind);
    metrics?.acquisition(outcomeOf(outcome), waitedMs, attributes);
    spans?.acquisition(kind, outcomeOf(outcome), waitedMs, attributes, error);
  });
  listen('released', ({ name, kind, owner, heldMs }) => {
    const hold = book.take(name, owner);
    const attributes = hold?.attributes ?? lockAttributes(lockName, name, kind);
    metrics?.released(heldMs, attributes, hold);
    spans?.released(kind, heldMs, attributes, hold);
  });
  listen('lockLost', ({ key, field, error }) => {
    const hold = book.takeLost(key, field);
    metrics?.lost(hold);
    spans?.lost(hold, error);
  });
}

// The watchdog's batches: metrics only, as a batch belongs to no one acquisition or hold.
function listenToWatchdog(listen: Listen, metrics: LockMetrics): void {
  listen('renewed', ({ holds, lost }) => metrics.renewed(holds, lost));
  listen('handledError', ({ operation }) => {
    if (operation === 'renew') metrics.renewalFailed();
  });
}
