import { defineScript } from './Script.js';
import acquire from './lua/lock-acquire.lua';
import extend from './lua/lock-extend.lua';
import forceRelease from './lua/lock-force-release.lua';
import handOff from './lua/lock-handoff.lua';
import holdOnly from './lua/lock-hold.lua';
import holdMarkers from './lua/hold-markers.lua';
import passHoldOnly from './lua/pass-hold.lua';
import release from './lua/lock-release.lua';
import releaseHoldOnly from './lua/release-hold.lua';
import renew from './lua/lock-renew.lua';
import renewBatch from './lua/renew-batch.lua';
import state from './lua/lock-state.lua';
import serverVersion from './lua/server-version.lua';
import unlockLatch from './lua/unlock-latch.lua';

// add_hold() and release_hold() are written over the hold markers (and release_hold() over
// with_unlock_latch()); each fragment carries what it needs.
const hold = `${holdMarkers}\n${holdOnly}`;
const releaseHold = `${unlockLatch}\n${holdMarkers}\n${releaseHoldOnly}`;
const passHold = `${releaseHold}\n${holdOnly}\n${passHoldOnly}`;

/**
 * Lua fragments that lock kinds in other packages prepend to their own scripts, so that logic
 * every kind shares is written once. Each fragment's header says what it defines.
 */
export const coreLua = {
  /**
   * Defines the hold markers that make a re-sent request count once (`extend_to`, `markers_of`,
   * `is_marked`, `mark`, `unmark`, `keep_markers`, `forget_marks_of`). Already part of
   * {@link coreLua.hold} and {@link coreLua.releaseHold}; prepend it alone to a script that
   * uses neither.
   */
  holdMarkers,
  /**
   * Defines the hold markers, `hold_state(lock, markers, field, hold)` and `add_hold(lock,
   * markers, field, hold, lease)`: taking or re-entering an exclusive reentrant lock hash, for
   * acquire scripts that do more than the plain lock's.
   */
  hold,
  /**
   * Defines the hold markers, `release_hold(lock, markers, field, hold, latch, remember,
   * on_freed)`, one hold's release with its unlock latch, and `drop_hold(lock, markers, field,
   * hold)`, its first step.
   */
  releaseHold,
  /**
   * Defines everything {@link coreLua.hold} and {@link coreLua.releaseHold} do, and
   * `pass_hold(lock, markers, latch, remember, from, from_hold, to, to_hold, lease, on_passing)`:
   * a local hand-off, for a kind whose hand-off does more than the plain lock's (a fenced lock
   * draws a token in `on_passing`).
   */
  passHold,
  /**
   * Defines `with_unlock_latch(latch, remember, release)`: runs a release once per request id and
   * returns its first outcome to a re-sent request. For release scripts that do not fit
   * `release_hold` (prepend the hold markers too). Already part of {@link coreLua.releaseHold}.
   */
  unlockLatch,
  /**
   * Defines `renew_batch(renew_one)`: the watchdog's batch renewal over KEYS and ARGV as the
   * renewal scheduler sends them, replying 1 or 0 per key. For a kind's own renewal script
   * (prepend the hold markers too, for `extend_to` and `keep_markers`).
   */
  renewBatch,
} as const;

/** The scripts of the reentrant lock and of the client itself. */
export const coreScripts = {
  acquire: defineScript('core/lock-acquire', `${hold}\n${acquire}`),
  release: defineScript('core/lock-release', `${releaseHold}\n${release}`),
  handOff: defineScript('core/lock-handoff', `${passHold}\n${handOff}`),
  forceRelease: defineScript('core/lock-force-release', forceRelease),
  renew: defineScript('core/lock-renew', `${holdMarkers}\n${renewBatch}\n${renew}`),
  extend: defineScript('core/lock-extend', `${holdMarkers}\n${extend}`),
  state: defineScript('core/lock-state', state),
  serverVersion: defineScript('core/server-version', serverVersion),
} as const;
