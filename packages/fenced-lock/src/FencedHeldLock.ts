import { HeldLock } from '@deadbolt/core';
import type { HoldHandle } from '@deadbolt/core/kit';

/**
 * One acquisition of a {@link FencedLock}: a {@link @deadbolt/core!index.HeldLock} with the fencing
 * token this acquisition drew. Send the token with every write the lock protects, and have the
 * storage refuse a write whose token is lower than one it has seen.
 */
export class FencedHeldLock extends HeldLock {
  /**
   * The fencing token: greater than the token of every earlier acquisition of this lock name, by
   * any client, Java (Redisson's `RFencedLock`) or Node. A bigint, because Redis counters are
   * 64-bit and a JavaScript number is exact only up to 2^53; `String(token)` to send it.
   */
  readonly token: bigint;

  /** For the fenced lock: wraps a successful acquisition and the token it drew. */
  constructor(hold: HoldHandle, token: bigint) {
    super(hold);
    this.token = token;
  }
}
