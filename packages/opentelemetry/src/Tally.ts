import type { Attributes, ObservableResult } from '@opentelemetry/api';

/**
 * Counts that go up and down by attribute set (the holds or the waits this process has now),
 * kept here and observed at each collection. Kept here rather than in a synchronous
 * UpDownCounter so that the count stays right across a change of meter: a hold counted before
 * the SDK started is still counted after, and its release does not go below zero there.
 */
export class Tally {
  readonly #counts = new Map<string, { readonly attributes: Attributes; count: number }>();

  /** Adds `delta` to the count of `attributes`. */
  add(attributes: Attributes, delta: number): void {
    const key = JSON.stringify(attributes);
    const entry = this.#counts.get(key);
    if (entry) entry.count += delta;
    // A series that went back to zero stays, reporting 0, as a synchronous UpDownCounter's does.
    else this.#counts.set(key, { attributes, count: delta });
  }

  /** Reports every count, for an observable instrument's callback. */
  observe(result: ObservableResult): void {
    for (const { attributes, count } of this.#counts.values()) result.observe(count, attributes);
  }
}
