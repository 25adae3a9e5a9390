import type { LockLossReason, LockLostError } from '../errors/LockError.js';

/** What the `lockLost` event reports. */
export interface LockLostEvent {
  /** The Redis key of the lost lock. */
  readonly key: string;
  /** The owner field (`<clientId>:<ownerId>`) that held it. */
  readonly field: string;
  /** Why it was lost: `error.reason`, for metrics that tell a lease that ended from a lock that went. */
  readonly reason: LockLossReason;
  /** The loss; also the reason of the held lock's aborted signal. */
  readonly error: LockLostError;
}

/**
 * Events of a {@link LockClient}, for logs, metrics and traces (`@deadbolt/opentelemetry` turns
 * them into OpenTelemetry metrics and spans). Every lock event names the lock (`name`, its Redis
 * key), its kind (`lock`, `fair`, `read`, `write`, `fenced`, or a custom kind's name) and the
 * owner id. Times are in milliseconds on the monotonic clock.
 *
 * Free when nobody listens: no payload is built for an event without listeners. A listener that
 * throws does not break the lock operation it reports on: its error becomes a process warning
 * (`DeadboltListenerError`).
 */
export interface LockClientEvents {
  /**
   * An acquisition took the lock: a first hold, a re-entry, or a lock passed by a local holder.
   * `waitedMs` counts from the call to the grant.
   */
  acquired: [
    event: {
      readonly name: string;
      readonly kind: string;
      readonly owner: string;
      readonly waitedMs: number;
      readonly passedLocally: boolean;
    },
  ];
  /**
   * A held lock was released (one hold of it: a re-entered lock stays held by its other holds).
   * `heldMs` counts from its grant. Every hold ends in exactly one `released` or `lockLost`.
   */
  released: [event: { readonly name: string; readonly kind: string; readonly owner: string; readonly heldMs: number }];
  /**
   * An acquisition did not take the lock at its first attempt: it was held by someone else, and
   * the acquisition waits for it (with no wait time, `waitEnded` follows at once with
   * `timedOut`); or the attempt failed (`waitEnded` follows at once with `failed`). Every
   * acquisition that does not take the lock at once thus ends with one `waitEnded`.
   */
  waitStarted: [event: { readonly name: string; readonly kind: string; readonly owner: string }];
  /**
   * A wait that `waitStarted` reported ended: the lock was `taken`, the wait time ran out
   * (`timedOut`), its signal aborted (`aborted`), or it `failed` with `error` (Redis unreachable,
   * the client closed, ...). `waitedMs` counts from the call.
   */
  waitEnded: [
    event: {
      readonly name: string;
      readonly kind: string;
      readonly owner: string;
      readonly waitedMs: number;
      readonly outcome: 'taken' | 'timedOut' | 'aborted' | 'failed';
      readonly error?: unknown;
    },
  ];
  /**
   * The watchdog renewed a batch of held locks in one script: `holds` were asked for, `lost` of them
   * were found gone (each also reported by `lockLost`). A batch that could not reach Redis is
   * reported by `handledError` instead, and retried.
   */
  renewed: [event: { readonly holds: number; readonly lost: number; readonly tookMs: number }];
  /**
   * A held lock was lost, for the `reason` the event carries: its fixed lease ran out while it was
   * held (`leaseEnded`), the watchdog, an extend or its release found it gone (`gone`), the
   * watchdog could not reach Redis before its lease ended (`unreachable`), an extend or release
   * whose outcome is unknown may have ended it (`outcomeUnknown`), or its client was closed
   * (`clientClosed`). Every hold ends in exactly one `released` or `lockLost`: a hold reported
   * lost is not reported again by its release.
   */
  lockLost: [event: LockLostEvent];
  /**
   * An error Deadbolt handled on its own, where nobody awaits the operation: a watchdog batch that
   * could not reach Redis (`renew`, retried), a hold given back that could not be released
   * (`giveBack`: it expires with its lease).
   */
  handledError: [event: { readonly operation: 'renew' | 'giveBack'; readonly name?: string; readonly error: unknown }];
  /**
   * The server's `maxmemory-policy` may evict lock keys (`allkeys-*`, `volatile-*`): an evicted
   * lock is a lock held twice. Emitted once per client, at its first operation, with the policy
   * and `maxmemory` in bytes (0: no limit set yet). Only with `evictionPolicy: 'warn'` (the
   * default); without a listener it becomes a process warning.
   */
  evictionRisk: [event: { readonly policy: string; readonly maxmemory: number }];
}
