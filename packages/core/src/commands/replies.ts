/**
 * What one acquisition attempt's script replies, decoded.
 *
 * @typeParam Grant - what a kind learns when it takes the lock (a fenced lock's token); `null`
 *   for a kind that learns nothing more
 */
export type AcquireReply<Grant> =
  /** The lock was taken or re-entered by this attempt. */
  | { readonly status: 'taken'; readonly grant: Grant }
  /** Someone else holds it for `ttl` more milliseconds (`Infinity`: no expiry). */
  | { readonly status: 'heldByOther'; readonly ttl: number }
  /** This owner may never take it as things stand (a reader asking for the write lock). */
  | { readonly status: 'refused' };

/** What a release script replies, decoded. */
export type ReleaseReply =
  /** The hold did not stand (released already, expired, force-unlocked): nothing changed. */
  | 'notHeld'
  /** The hold was released and other holds keep the lock. */
  | 'stillHeld'
  /** The hold was released and the lock freed; waiters were woken. */
  | 'freed';

/**
 * What a local hand-off replies, decoded (see `LockKind.handOff`).
 *
 * @typeParam Grant - what the receiver's hold learns, as in {@link AcquireReply}
 */
export type HandOffReply<Grant> =
  /** The releasing hold was its owner's last, and the lock passed to the receiver. */
  | { readonly status: 'passed'; readonly grant: Grant }
  /** The releasing hold was released; other holds of its owner keep the lock, so nothing passed. */
  | { readonly status: 'stillHeld' }
  /**
   * The releasing hold was its owner's last, but the lock could not pass: it was released as a
   * plain release would, waking waiters, and the receiver got nothing. A read-write lock's writer
   * that still holds read holds downgrades the lock to a read lock that the receiving writer
   * cannot share.
   */
  | { readonly status: 'released' }
  /** The releasing hold did not stand (released already, expired, force-unlocked): nothing changed. */
  | { readonly status: 'notHeld' };

/** What the query methods read of a lock, in one round trip. */
export interface LockState {
  /** The lock's remaining TTL in milliseconds: `null` when nobody holds it, `Infinity` when it never expires. */
  readonly ttl: number | null;
  /** The hold count of the field asked about; 0 when it holds none or none was asked about. */
  readonly holds: number;
}

// PTTL's answers for a key that does not exist and for one without expiry.
const PTTL_NO_KEY = -2;
const PTTL_NO_EXPIRY = -1;

/** Decodes a PTTL reply: `null` for no key, `Infinity` for no expiry, else the milliseconds. */
export function decodePttl(reply: unknown): number | null {
  const ttl = Number(reply);
  return ttl === PTTL_NO_KEY ? null : ttl === PTTL_NO_EXPIRY ? Infinity : ttl;
}

/**
 * Decodes the reply of an acquire script that replies nil when it took the lock and the holder's
 * PTTL otherwise.
 */
export function decodeNilOrTtl(reply: unknown): AcquireReply<null> {
  return reply === null ? TAKEN : heldByOther(reply);
}

/** The reply for a lock someone else holds, from the PTTL the script read. */
export function heldByOther(pttl: unknown): AcquireReply<never> {
  return { status: 'heldByOther', ttl: decodePttl(pttl) ?? Infinity };
}

const TAKEN: AcquireReply<null> = Object.freeze({ status: 'taken', grant: null });

/** Decodes a release script's nil (not held), 0 (still held) or 1 (freed). */
export function decodeRelease(reply: unknown): ReleaseReply {
  return reply === null ? 'notHeld' : Number(reply) === 1 ? 'freed' : 'stillHeld';
}

/**
 * Decodes a hand-off script's nil (not held), 0 (still held), 1 (passed, granting nothing more) or
 * {@link HANDOFF_RELEASED} (released to everyone instead).
 */
export function decodeHandOff(reply: unknown): HandOffReply<null> {
  return Number(reply) === 1 ? PASSED : handOffNotPassed(reply);
}

/**
 * What a hand-off script replies when the releasing hold was its owner's last but the lock could
 * not pass and was released to everyone instead (see the `released` {@link HandOffReply}).
 */
export const HANDOFF_RELEASED = 2;

/**
 * The reply for a hand-off that passed nothing: nil (the releasing hold did not stand), 0 (holds
 * of its owner remain) or {@link HANDOFF_RELEASED}. A kind whose "passed" reply carries a grant
 * decodes that itself.
 */
export function handOffNotPassed(reply: unknown): HandOffReply<never> {
  if (reply === null) return NOT_HELD;
  return Number(reply) === HANDOFF_RELEASED ? RELEASED : STILL_HELD;
}

const PASSED: HandOffReply<null> = Object.freeze({ status: 'passed', grant: null });
const STILL_HELD: HandOffReply<never> = Object.freeze({ status: 'stillHeld' });
const RELEASED: HandOffReply<never> = Object.freeze({ status: 'released' });
const NOT_HELD: HandOffReply<never> = Object.freeze({ status: 'notHeld' });

/** Decodes a script's 1 (done) or 0 (nothing to do) as a boolean. */
export function decodeDone(reply: unknown): boolean {
  return Number(reply) === 1;
}

/** Decodes a state script's `{ pttl, hold count }`. */
export function decodeLockState(reply: unknown): LockState {
  const [ttl, holds] = Array.isArray(reply) ? (reply as unknown[]) : [];
  return { ttl: decodePttl(ttl), holds: Number(holds ?? 0) };
}
