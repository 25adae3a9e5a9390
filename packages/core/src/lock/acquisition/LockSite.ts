import type { LockState } from '../../commands/replies.js';
import { InvalidArgumentError } from '../../errors/LockError.js';
import type { ReceivingLock } from '../../handoff/HandoffReceiver.js';
import { ownerField } from '../../keys/lockKeys.js';
import { checkOwner } from '../../options/validate.js';
import { currentOwner } from '../../owner/ownerScope.js';
import type { CoreRuntime } from '../../runtime/CoreRuntime.js';
import type { FixedShapeKind } from '../fixedShapeKind.js';
import type { HeldLock } from '../HeldLock.js';
import type { LockKind } from '../LockKind.js';
import { fixedShapeKind } from '../fixedShapeKind.js';
import { giveBackQuietly } from './giveBack.js';

/**
 * What every acquisition of one lock handle shares: the lock's name, its kind's declaration and
 * the client's runtime; and the reads of the lock's state. Made once per handle by `LockBase`.
 *
 * @typeParam Grant - what a successful attempt learns (see `LockKind`)
 * @typeParam Held - what an acquisition returns
 */
export class LockSite<Grant, Held extends HeldLock> {
  /** The lock's name. */
  readonly name: string;
  readonly runtime: CoreRuntime;
  readonly kind: FixedShapeKind<Grant, Held>;
  /** What a waiter of this lock needs to be passed it by a local holder, for a kind with a hand-off. */
  readonly receiving: ReceivingLock<Grant> | undefined;

  constructor(runtime: CoreRuntime, name: string, kind: LockKind<Grant, Held>) {
    this.name = name;
    this.runtime = runtime;
    this.kind = fixedShapeKind(kind);
    const { handOff } = this.kind;
    this.receiving = handOff && {
      runtime,
      name,
      handOff,
      // Receivers are enlisted by kind (its hand-off script) and name: only a lock of the same kind passes to them.
      key: `${handOff.script.name}\n${name}`,
      giveBack: (field, hold) => this.giveBack(field, hold),
    };
  }

  /**
   * Gives back hold `hold` of `field` where nobody awaits the outcome (see `giveBackQuietly`):
   * one never released expires with its lease.
   */
  giveBack(field: string, hold: string): Promise<void> {
    return giveBackQuietly(this.runtime, this.name, this.kind.release(field, hold));
  }

  /** The hash field that counts the holds of `field`'s owner (see `LockKind.holdField`). */
  holdField(field: string): string {
    return this.kind.holdField ? this.kind.holdField(field) : field;
  }

  /**
   * The hold field of `owner`, or without one, of the enclosing `withLock` scope's owner: what
   * the queries read.
   *
   * @throws `InvalidArgumentError` when no owner is given outside a `withLock` scope
   */
  holdFieldOf(owner: string | undefined): string {
    const id = owner === undefined ? currentOwner(this.name) : checkOwner(owner, 'owner');
    if (id === undefined) throw new InvalidArgumentError('owner', 'give an owner, or ask inside a withLock callback');
    return this.holdField(ownerField(this.runtime.clientId, id));
  }

  /** Reads the lock's TTL and the hold count of `holdField` (`''` for none), once the client is checked open. */
  state(holdField: string): Promise<LockState> {
    this.runtime.assertOpen();
    return this.runtime.run(this.kind.state(holdField));
  }
}
