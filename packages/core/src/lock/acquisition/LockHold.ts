import type { LockLostError } from '../../errors/LockError.js';
import type { Passed } from '../../handoff/HandoffReceiver.js';
import type { HandoffStreak } from '../../handoff/LocalHandoffs.js';
import type { Renewal, RenewalTarget } from '../../watchdog/RenewalScheduler.js';
import type { HeldLock, HoldHandle } from '../HeldLock.js';
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
  readonly #site: LockSite<Grant, Held>;
  readonly #field: string;
  readonly #hold: string;
  readonly #streak: HandoffStreak | undefined;
  readonly #target: RenewalTarget;
  #releaseSent = false;

  /**
   * @param field - the owner field the hold was taken for
   * @param leaseTime - the lease asked for, `undefined` when the watchdog renews the hold
   * @param taken - the hold an attempt took or a local holder passed
   */
  constructor(
    site: LockSite<Grant, Held>,
    owner: string,
    field: string,
    leaseTime: number | undefined,
    taken: Passed<Grant>,
  ) {
    this.name = site.name;
    this.owner = owner;
    this.leaseTime = leaseTime;
    this.acquiredAt = taken.acquiredAt;
    this.#site = site;
    this.#field = field;
    this.#hold = taken.hold;
    this.#streak = taken.streak;
    this.#target = { command: site.kind.renew, name: site.name, field: site.holdField(field), hold: taken.hold };
  }

  keepAlive(onLost: (error: LockLostError) => void, from: number, until?: number): Renewal | undefined {
    if (until !== undefined && !this.#site.kind.guardsFixedLeases) return undefined;
    return this.#site.runtime.keepAlive(this.#target, onLost, from, until);
  }

  release(): Promise<boolean> {
    // Only the first call may pass the lock on: after a failed hand-off its latch would tell a
    // second receiver "passed" of a pass that went to the first.
    const mayPass = !this.#releaseSent;
    this.#releaseSent = true;
    const site = this.#site;
    const releasing = releaseOrPass(site, this.#field, this.#hold, mayPass, this.#streak);
    const { events } = site.runtime;
    if (!events.listening('released')) return releasing;
    return releasing.then((released) => {
      if (released)
        events.emit('released', {
          name: this.name,
          kind: site.kind.kindName,
          owner: this.owner,
          heldMs: performance.now() - this.acquiredAt,
        });
      return released;
    });
  }

  extend(leaseTime: number): Promise<boolean> {
    const { runtime, kind } = this.#site;
    return runtime.run(kind.extend(this.#field, this.#hold, leaseTime, runtime.newHoldId()));
  }

  reportLost(error: LockLostError): void {
    const { events } = this.#site.runtime;
    if (events.listening('lockLost')) events.emit('lockLost', { key: this.name, field: this.#target.field, error });
  }
}
