import { defineScript } from './Script.js';
import acquire from './lua/lock-acquire.lua';
import forceRelease from './lua/lock-force-release.lua';
import hold from './lua/lock-hold.lua';
import release from './lua/lock-release.lua';
import releaseHoldOnly from './lua/release-hold.lua';
import renew from './lua/lock-renew.lua';
import renewBatch from './lua/renew-batch.lua';
import state from './lua/lock-state.lua';
import serverVersion from './lua/server-version.lua';
import unlockLatch from './lua/unlock-latch.lua';

// release_hold() is written over with_unlock_latch(); the fragment carries both.
const releaseHold = `${unlockLatch}\n${releaseHoldOnly}`;

/**
 * Lua fragments that lock kinds in other packages prepend to their own scripts, so that logic
 * every kind shares is written once. Each fragment's header says what it defines.
 */
export const coreLua = {
  /**
   * Defines `can_hold(lock, field)` and `add_hold(lock, field, lease)`: taking or re-entering a
   * reentrant lock hash, for acquire scripts that do more than the plain lock's.
   */
  hold,
  /** Defines `release_hold(lock, field, lease, latch, remember, on_freed)`: one hold's release with its unlock latch. */
  releaseHold,
  /**
   * Defines `with_unlock_latch(latch, remember, release)`: runs a release once per request id and
   * returns its first outcome to a re-sent request. For release scripts that do not fit
   * `release_hold`. Already part of {@link coreLua.releaseHold}; prepend one or the other.
   */
  unlockLatch,
  /**
   * Defines `renew_batch(renew_one)`: the watchdog's batch renewal over KEYS and ARGV as the
   * renewal scheduler sends them, replying 1 or 0 per key. For a kind's own renewal script.
   */
  renewBatch,
} as const;

/** The scripts of the reentrant lock and of the client itself. */
export const coreScripts = {
  acquire: defineScript('core/lock-acquire', `${hold}\n${acquire}`),
  release: defineScript('core/lock-release', `${releaseHold}\n${release}`),
  forceRelease: defineScript('core/lock-force-release', forceRelease),
  renew: defineScript('core/lock-renew', `${renewBatch}\n${renew}`),
  state: defineScript('core/lock-state', state),
  serverVersion: defineScript('core/server-version', serverVersion),
} as const;
