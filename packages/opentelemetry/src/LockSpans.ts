import {
  SpanKind,
  SpanStatusCode,
  context,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_LOCK_LOSS_REASON,
  ATTR_LOCK_OUTCOME,
  errorType,
  type AcquisitionOutcome,
  type LossReason,
} from './attributes.js';
import type { TrackedHold } from './HoldBook.js';

/** The current time in epoch milliseconds, on the monotonic clock the events' durations use. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Records a client's events as spans: `deadbolt.acquire <kind>` from the acquisition call to its
 * outcome, recorded after the fact with a start computed from the event's duration, and
 * `deadbolt.hold <kind>` from the grant to the release (or the loss), started at the grant and
 * linked to the acquisition that granted it. A failure sets the span's status to `ERROR` with the
 * error's message and its `error.type`, as OpenTelemetry's conventions for errors say (no
 * exception event).
 */
export class LockSpans {
  readonly #tracer: Tracer;

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  /**
   * An acquisition of a lock of `kind` ended with `outcome` after `waitedMs`; `error` for a
   * failed one. Returns the span's context, for the hold's span to link to.
   */
  acquisition(
    kind: string,
    outcome: AcquisitionOutcome,
    waitedMs: number,
    lock: Attributes,
    error?: unknown,
  ): SpanContext {
    const now = epochNow();
    const span = this.#tracer.startSpan(
      `deadbolt.acquire ${kind}`,
      { kind: SpanKind.INTERNAL, startTime: now - waitedMs, attributes: { ...lock, [ATTR_LOCK_OUTCOME]: outcome } },
      context.active(),
    );
    // A timed-out or aborted wait is an answer the caller asked for; only a failure is an error.
    if (outcome === 'failed') fail(span, error);
    span.end(now);
    return span.spanContext();
  }

  /** A hold of a lock of `kind` was granted by `acquisition`: its span starts, a child of the context active now. */
  granted(kind: string, lock: Attributes, acquisition: SpanContext): Span {
    return this.#hold(kind, epochNow(), lock, context.active(), acquisition);
  }

  /**
   * A hold of a lock of `kind` was released after `heldMs`; `hold` when its grant was seen, else
   * its span is recorded now, from a start computed from `heldMs`.
   */
  released(kind: string, heldMs: number, lock: Attributes, hold: TrackedHold | undefined): void {
    const now = epochNow();
    (hold?.span ?? this.#hold(kind, now - heldMs, lock, context.active(), undefined)).end(now);
  }

  /**
   * A hold was lost for `reason` with `error`. Only a hold whose grant was seen has a span. A
   * fixed lease that ran out under its holder is how such a hold ends, not a failure: its span
   * ends without an error status.
   */
  lost(hold: TrackedHold | undefined, reason: LossReason, error: unknown): void {
    const span = hold?.span;
    if (!span) return;
    span.setAttribute(ATTR_LOCK_LOSS_REASON, reason);
    if (reason !== 'lease_ended') fail(span, error);
    span.end(epochNow());
  }

  #hold(
    kind: string,
    startTime: number,
    lock: Attributes,
    parent: Context,
    acquisition: SpanContext | undefined,
  ): Span {
    const links = acquisition ? [{ context: acquisition }] : [];
    return this.#tracer.startSpan(
      `deadbolt.hold ${kind}`,
      { kind: SpanKind.INTERNAL, startTime, attributes: lock, links },
      parent,
    );
  }
}

function fail(span: Span, error: unknown): void {
  span.setAttribute(ATTR_ERROR_TYPE, errorType(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}
