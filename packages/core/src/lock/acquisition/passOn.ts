import type { HandoffStreak } from '../../handoff/LocalHandoffs.js';
import type { HeldLock } from '../HeldLock.js';
import type { LockSite } from './LockSite.js';

/**
 * Releases hold `hold` of `field`, or passes the lock to a local waiter when the kind hands off,
 * `mayPass` allows it and one waits (within the run's limits, `streak` being the run the hold was
 * passed in). A release that changed something waits for replicas when the client syncs them;
 * the lock stays released on the master whatever they say.
 *
 * @returns whether the hold stood
 */
export async function releaseOrPass<Grant, Held extends HeldLock>(
  site: LockSite<Grant, Held>,
  field: string,
  hold: string,
  mayPass: boolean,
  streak: HandoffStreak | undefined,
): Promise<boolean> {
  const { runtime, kind } = site;
  const handoffs = runtime.localHandoffs;
  const key = site.receiving?.key;
  const claim = mayPass && key !== undefined ? handoffs?.claim(key, streak) : undefined;
  let released: boolean;
  if (typeof claim === 'object') {
    released = await claim.receiver.receiveFrom({ field, hold }, claim.streak);
  } else if (claim === 'runEnded' && handoffs && key !== undefined) {
    // A run of local passes ends here: this client's waiters let the other processes go first,
    // from before the release is sent (its publish may wake them before its reply arrives).
    const sent = handoffs.beginStepBack(key);
    let freed = false;
    try {
      const reply = await runtime.run(kind.release(field, hold));
      freed = reply === 'freed';
      released = reply !== 'notHeld';
    } finally {
      handoffs.endStepBack(key, sent, freed);
    }
  } else {
    released = (await runtime.run(kind.release(field, hold))) !== 'notHeld';
  }
  const confirm = runtime.confirmReplicas;
  if (released && confirm) await confirm(site.name, 'release');
  return released;
}
