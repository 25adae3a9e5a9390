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
import { ATTR_LOCK_OUTCOME, type AcquisitionOutcome } from './attributes.js';
import type { TrackedHold } from './HoldBook.js';

/** The current time in epoch milliseconds, on the monotonic clock the events' durations use. */
export function epochNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Records a client's events as spans, after the fact: `deadbolt.acquire <kind>` from the
 * acquisition call to its outcome, `deadbolt.hold <kind>` from the grant to the release (or the
 * loss), linked to the acquisition that granted it. Each span starts at a time computed from the
 * event's duration and ends when the event arrives; none is ever the active span.
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

  /** A hold of a lock of `kind` was released after `heldMs`; `hold` when its grant was seen. */
  released(kind: string, heldMs: number, lock: Attributes, hold: TrackedHold | undefined): void {
    const now = epochNow();
    this.#hold(kind, now - heldMs, lock, hold?.context ?? context.active(), hold?.acquisition).end(now);
  }

  /**
   * A hold was lost with `error`. Only a hold whose grant was seen gets a span: the kind and the
   * start of any other are not known.
   */
  lost(hold: TrackedHold | undefined, error: unknown): void {
    if (!hold) return;
    const span = this.#hold(hold.kind, hold.grantedAt, hold.attributes, hold.context, hold.acquisition);
    fail(span, error);
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
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}
