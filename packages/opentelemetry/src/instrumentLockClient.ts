import { context, metrics as globalMetrics, trace, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import type { LockClient, LockClientEvents } from '@deadbolt/core';
import { lockAttributes, lossReasonOf, outcomeOf } from './attributes.js';
import { HoldBook } from './HoldBook.js';
import { LockMetrics } from './LockMetrics.js';
import { LockSpans } from './LockSpans.js';
import { lockNameMapper, type LockNameMapper, type LockNamePolicy } from './lockNames.js';
import { INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION } from './scope.js';

/** Options of {@link instrumentLockClient}. */
export interface LockInstrumentationOptions {
  /**
   * Where the metrics go; the global meter provider of `@opentelemetry/api` by default, looked up
   * at each record: what is recorded before the SDK starts is lost, what is recorded after arrives.
   */
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
  /**
   * Runs `fn` with the span of `held` (`deadbolt.hold <kind>`) as the active span, so the spans
   * your code starts in it are its children. Opt-in, per callback: call it inside `withLock`'s
   * callback, `lock.withLock((signal, held) => telemetry.inHoldSpan(held, () => work(signal)))`.
   * Runs `fn` as it is when there is no such span (traces off, or a hold granted before the
   * instrumentation started).
   *
   * @param held - the hold whose span to make active: its lock name and owner
   * @param fn - the work to run in it
   * @returns what `fn` returns
   */
  readonly inHoldSpan: <T>(held: { readonly name: string; readonly owner: string }, fn: () => T) => T;
  /**
   * Removes every listener the instrumentation added to the client and stops reporting the held
   * and waiting counts; idempotent. Spans of holds still open are not recorded.
   */
  readonly stop: () => void;
  /** {@link LockInstrumentation.stop}, for `using`. */
  [Symbol.dispose](): void;
}

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
 * Their parent is the context active when the lock was acquired (with a context manager that
 * follows async calls, the span around your `acquire` call). They are not made active on their
 * own: the work your code does while holding a lock is a child of its hold's span only inside
 * {@link LockInstrumentation.inHoldSpan}.
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
  const { meterProvider } = options;
  // The global tracer provider is a proxy that follows the SDK's once it starts; the meter provider is not.
  const lockMetrics =
    options.metrics === false
      ? undefined
      : new LockMetrics(meterProvider ? () => meterProvider : () => globalMetrics.getMeterProvider());
  const tracer =
    options.traces === false
      ? undefined
      : (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION);
  const removals: (() => void)[] = [];
  const listen = <Event extends keyof LockClientEvents>(event: Event, listener: Listener<Event>): void => {
    client.on(event, listener);
    removals.push(() => client.off(event, listener));
  };
  const spans = tracer && new LockSpans(tracer);
  const book = new HoldBook(client.id);
  if (lockMetrics || spans) listenToLocks(listen, book, lockName, lockMetrics, spans);
  if (lockMetrics) listenToWaits(listen, lockName, lockMetrics);
  if (lockMetrics) listenToWatchdog(listen, lockMetrics);
  const stop = () => {
    for (const remove of removals.splice(0)) remove();
    lockMetrics?.stop();
  };
  const inHoldSpan = <T>(held: { readonly name: string; readonly owner: string }, fn: () => T): T => {
    const span = book.latest(held.name, held.owner)?.span;
    return span ? context.with(trace.setSpan(context.active(), span), fn) : fn();
  };
  return { inHoldSpan, stop, [Symbol.dispose]: stop };
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
    const span = acquisition && spans?.granted(kind, attributes, acquisition);
    book.add({ name, owner, attributes, span });
  });
  // A taken wait is followed by its `acquired` event at once, which records it.
  listen('waitEnded', ({ name, kind, waitedMs, outcome, error }) => {
    if (outcome === 'taken') return;
    const attributes = lockAttributes(lockName, name, kind);
    metrics?.acquisition(outcomeOf(outcome), waitedMs, attributes, error);
    spans?.acquisition(kind, outcomeOf(outcome), waitedMs, attributes, error);
  });
  listen('released', ({ name, kind, owner, heldMs }) => {
    const hold = book.take(name, owner);
    const attributes = hold?.attributes ?? lockAttributes(lockName, name, kind);
    metrics?.released(heldMs, attributes, hold);
    spans?.released(kind, heldMs, attributes, hold);
  });
  listen('lockLost', ({ key, field, reason, error }) => {
    const hold = book.takeLost(key, field);
    metrics?.lost(lossReasonOf(reason), hold);
    spans?.lost(hold, lossReasonOf(reason), error);
  });
}

// The acquisitions waiting now: metrics only, as each wait's span is its acquisition's.
function listenToWaits(listen: Listen, lockName: LockNameMapper, metrics: LockMetrics): void {
  listen('waitStarted', ({ name, kind }) => metrics.waiting(lockAttributes(lockName, name, kind), 1));
  listen('waitEnded', ({ name, kind }) => metrics.waiting(lockAttributes(lockName, name, kind), -1));
}

// The watchdog's batches: metrics only, as a batch belongs to no one acquisition or hold.
function listenToWatchdog(listen: Listen, metrics: LockMetrics): void {
  listen('renewed', ({ holds, lost, tookMs }) => metrics.renewed(holds, lost, tookMs));
  listen('handledError', ({ operation, error }) => {
    if (operation === 'renew') metrics.renewalFailed(error);
  });
}
