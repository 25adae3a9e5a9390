import type { LockLostError } from '../../errors/LockError.js';
import type { Passed } from '../../handoff/HandoffReceiver.js';
import type { HandoffStreak } from '../../handoff/LocalHandoffs.js';
import type { Renewal, RenewalTarget } from '../../watchdog/RenewalScheduler.js';
import type { CheckedAcquireOptions } from '../AcquireOptions.js';
import type { HeldLock } from '../HeldLock.js';
import type { HoldHandle, HoldLimit } from '../HoldHandle.js';
import type { LockSite } from './LockSite.js';
import { releaseOrPass } from './passOn.js';

/**
 * The {@link HoldHandle} of one lock acquisition: how its `HeldLock` keeps the hold alive,
 * releases it (passing the lock on to a local waiter where it may) and extends it.
 */
export class LockHold<Grant, Held extends HeldLock> implements HoldHandle {
  readonly name: string;
  readonly owner: string;
  readonly leaseTime: number | undefined;
  readonly acquiredAt: number;
  readonly holdLimit: HoldLimit | undefined;
  readonly #site: LockSite<Grant, Held>;
  readonly #field: string;
  readonly #hold: string;
  readonly #streak: HandoffStreak | undefined;
  readonly #target: RenewalTarget;
  #releaseSent = false;
  // Ends this hold's count as standing with the client's hand-offs, while the watchdog keeps it.
  #endStanding: (() => void) | undefined;

  /**
   * @param field - the owner field the hold was taken for
   * @param lease - the lease asked for (`undefined` when the watchdog renews the hold), and the
   *   longest the watchdog may keep it
   * @param taken - the hold an attempt took or a local holder passed
   */
  constructor(
    site: LockSite<Grant, Held>,
    owner: string,
    field: string,
    { leaseTime, maxHoldTime }: Pick<CheckedAcquireOptions, 'leaseTime' | 'maxHoldTime'>,
    taken: Passed<Grant>,
  ) {
    this.name = site.name;
    this.owner = owner;
    this.leaseTime = leaseTime;
    this.acquiredAt = taken.acquiredAt;
    this.holdLimit =
      maxHoldTime === undefined ? undefined : { maxHoldTime, renewedLease: site.runtime.watchdogTimeout };
    this.#site = site;
    this.#field = field;
    this.#hold = taken.hold;
    this.#streak = taken.streak;
    this.#endStanding = taken.endStanding;
    this.#target = { command: site.kind.renew, name: site.name, field: site.holdField(field), hold: taken.hold };
  }

  keepAlive(onLost: (error: LockLostError) => void, from: number, until?: number): Renewal | undefined {
    // A fixed lease (an extend's) may end sooner than the watchdog's lease, which a local waiter
    // that skipped its attempt sleeps at most (see LocalHandoffs.heldByAnother).
    if (until === undefined) this.#stand();
    else this.#endStanding?.();
    if (until !== undefined && !this.#site.kind.guardsFixedLeases) return undefined;
    const lost = (error: LockLostError) => {
      this.#endStanding?.();
      onLost(error);
    };
    return this.#site.runtime.keepAlive(this.#target, lost, from, until);
  }

  release(): Promise<boolean> {
    this.#endStanding?.();
    // Only the first call may pass the lock on: after a failed hand-off its latch would tell a
    // second receiver "passed" of a pass that went to the first.
    const mayPass = !this.#releaseSent;
    this.#releaseSent = true;
    return releaseOrPass(this.#site, this.#field, this.#hold, mayPass, this.#streak);
  }

  reportReleased(): void {
    const { runtime, kind } = this.#site;
    const { events } = runtime;
    if (events.listening('released'))
      events.emit('released', {
        name: this.name,
        kind: kind.kindName,
        owner: this.owner,
        heldMs: performance.now() - this.acquiredAt,
      });
  }

  extend(leaseTime: number): Promise<boolean> {
    const { runtime, kind } = this.#site;
    return runtime.run(kind.extend(this.#field, this.#hold, leaseTime, runtime.newHoldId()));
  }

  reportLost(error: LockLostError): void {
    this.#endStanding?.();
    const { events } = this.#site.runtime;
    if (events.listening('lockLost'))
      events.emit('lockLost', { key: this.name, field: this.#target.field, reason: error.reason, error });
  }

  #stand(): void {
    const key = this.#site.receiving?.key;
    const handoffs = this.#site.runtime.localHandoffs;
    if (key !== undefined && handoffs !== undefined && this.#endStanding === undefined)
      this.#endStanding = handoffs.stand(key, this.#field);
  }
}
