import type { HeldLock } from './HeldLock.js';
import type { LockKind } from './LockKind.js';

// The members a declaration may leave out. Found from LockKind itself, so that a member added there
// makes fixedShapeKind fail to compile until it copies the member too.
type OptionalMember = {
  [Member in keyof LockKind]-?: object extends Pick<LockKind, Member> ? Member : never;
}[keyof LockKind];

/** A {@link LockKind} with every member present (an absent optional one `undefined`), in one order. */
export type FixedShapeKind<Grant, Held extends HeldLock> = Readonly<Omit<LockKind<Grant, Held>, OptionalMember>> & {
  readonly [Member in OptionalMember]: LockKind<Grant, Held>[Member] | undefined;
};

/**
 * A kind's declaration copied into an object of one shape for every lock handle of every kind,
 * its methods bound to the declaration (so a declaration's methods may use `this`).
 *
 * Why: kinds are declared by spreading another kind's declaration
 * (`{ ...reentrantLockKind(name), handOff }`), and V8 gives nearly every object made that way a
 * hidden class of its own. With many lock handles alive, each read of a kind's member on the
 * acquire and release path then missed V8's inline caches and went to its runtime. On an executor
 * that answers at once, callgrind counted 62,500 instructions per acquire + release cycle with
 * 256 handles (scenario 2's shape) before this copy and 45,400 after; with one handle, 40,100 and
 * 37,000 (the attempt context's spread, now written out, missed the same way).
 */
export function fixedShapeKind<Grant, Held extends HeldLock>(kind: LockKind<Grant, Held>): FixedShapeKind<Grant, Held> {
  return {
    kindName: kind.kindName,
    acquire: kind.acquire.bind(kind),
    release: kind.release.bind(kind),
    forceRelease: kind.forceRelease.bind(kind),
    extend: kind.extend.bind(kind),
    state: kind.state.bind(kind),
    leave: kind.leave?.bind(kind),
    handOff: kind.handOff,
    renew: kind.renew,
    waitChannel: kind.waitChannel.bind(kind),
    backoff: kind.backoff,
    holdField: kind.holdField?.bind(kind),
    guardsFixedLeases: kind.guardsFixedLeases,
    refused: kind.refused?.bind(kind),
    held: kind.held.bind(kind),
  };
}
