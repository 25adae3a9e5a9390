import type { Attributes, Span } from '@opentelemetry/api';

/** A hold the instrumentation saw being granted, kept until its release or loss. */
export interface TrackedHold {
  /** The lock's name, its Redis key. */
  readonly name: string;
  /** The owner id the events name. */
  readonly owner: string;
  /** Its kind and name attributes, so that the end of the hold is counted against the same series. */
  readonly attributes: Attributes;
  /** Its span, started at the grant and ended at its release or loss; none without traces. */
  readonly span: Span | undefined;
}

/**
 * The holds granted since the instrumentation started, by lock name and owner. A `released`
 * event names the lock and the owner but not which of an owner's re-entered holds it ends; holds
 * of one owner end last-in-first-out (the inner `withLock` returns first), so the latest is taken.
 * A `lockLost` event names the lock's key and owner field (`<clientId>:<ownerId>`, which a kind
 * may extend, as a write lock's `:write`), matched here against this client's id.
 */
export class HoldBook {
  readonly #clientId: string;
  readonly #holds = new Map<string, TrackedHold[]>();

  /** @param clientId - the client's id, the first half of the owner fields its `lockLost` events name */
  constructor(clientId: string) {
    this.#clientId = clientId;
  }

  /** Records a granted hold. */
  add(hold: TrackedHold): void {
    const key = holdKey(hold.name, hold.owner);
    const stack = this.#holds.get(key);
    if (stack) stack.push(hold);
    else this.#holds.set(key, [hold]);
  }

  /** The latest hold of `name` by `owner`, kept; `undefined` when there is none. */
  latest(name: string, owner: string): TrackedHold | undefined {
    return this.#holds.get(holdKey(name, owner))?.at(-1);
  }

  /** The latest hold of `name` by `owner`, removed; `undefined` when it was granted before the instrumentation started. */
  take(name: string, owner: string): TrackedHold | undefined {
    const key = holdKey(name, owner);
    const stack = this.#holds.get(key);
    const hold = stack?.pop();
    if (stack?.length === 0) this.#holds.delete(key);
    return hold;
  }

  /** The latest hold that a `lockLost` event of `key` and owner `field` reports, removed. */
  takeLost(key: string, field: string): TrackedHold | undefined {
    const prefix = `${this.#clientId}:`;
    if (!field.startsWith(prefix)) return undefined;
    const ownerPart = field.slice(prefix.length);
    // The owner field as written, else the owner it extends (a write lock's `<owner>:write`).
    const exact = this.take(key, ownerPart);
    if (exact) return exact;
    for (let end = ownerPart.lastIndexOf(':'); end > 0; end = ownerPart.lastIndexOf(':', end - 1)) {
      const hold = this.take(key, ownerPart.slice(0, end));
      if (hold) return hold;
    }
    return undefined;
  }
}

// NUL cannot be typed in a lock name by accident, so no two (name, owner) pairs share a key.
function holdKey(name: string, owner: string): string {
  return `${name}\u0000${owner}`;
}
