import { defineScript } from './Script.js';
import acquire from './lua/lock-acquire.lua';
import extend from './lua/lock-extend.lua';
import forceRelease from './lua/lock-force-release.lua';
import handOff from './lua/lock-handoff.lua';
import hold from './lua/lock-hold.lua';
import holders from './lua/lock-holders.lua';
import holdMarkers from './lua/hold-markers.lua';
import passHold from './lua/pass-hold.lua';
import release from './lua/lock-release.lua';
import releaseHold from './lua/release-hold.lua';
import releaseOnce from './lua/release-once.lua';
import renew from './lua/lock-renew.lua';
import renewBatch from './lua/renew-batch.lua';
import requestDeadline from './lua/request-deadline.lua';
import sameHolders from './lua/same-holders.lua';
import state from './lua/lock-state.lua';
import serverVersion from './lua/server-version.lua';

/**
 * Lua fragments that a lock kind built without this repository's `.lua` loader prepends to its
 * own scripts, so that logic every kind shares is written once (the kinds in this repository name
 * them with `--- @include "@deadbolt/core/<fragment>"` instead). Each fragment's header says what
 * it defines; each carries the fragments it is written over (its own include lines), so a script
 * prepends exactly one.
 */
export const coreLua = {
  /**
   * Defines the request deadline (`CLAIMED`, `server_now`, `refuse_if_late`, `claim_request`,
   * `once`): what makes a late copy of a state-changing request harmless. Part of every other
   * fragment.
   */
  requestDeadline,
  /**
   * Defines the request deadline and the hold markers that tell one acquisition's hold from
   * another's (`extend_to`, `markers_of`, `mark_of`, `is_marked`, `mark`, `mark_extended`,
   * `unmark`, `keep_markers`, `forget_marks_of`).
   */
  holdMarkers,
  /**
   * Defines the hold markers, `hold_state(lock, markers, record, deadline, field, hold)` (the
   * state, and the lock's PTTL as read), `add_hold(lock, markers, field, hold, lease)` and
   * `retry_ttl(ttl)`: taking or re-entering an exclusive reentrant lock hash once per attempt, for
   * acquire scripts that do more than the plain lock's.
   */
  hold,
  /**
   * Defines the hold markers, `release_once(record, remember, release)`, `release_hold(lock,
   * markers, field, hold, record, remember, on_freed)`, one hold's release, and `drop_hold(lock,
   * markers, field, hold)`, its first step.
   */
  releaseHold,
  /**
   * Defines everything {@link coreLua.hold} and {@link coreLua.releaseHold} do, and
   * `pass_hold(lock, markers, record, remember, from, from_hold, to, to_hold, lease, on_passing)`:
   * a local hand-off, for a kind whose hand-off does more than the plain lock's (a fenced lock
   * draws a token in `on_passing`).
   */
  passHold,
  /**
   * Defines the request deadline and `release_once(record, remember, release)`: runs a release
   * once per request record and answers a copy with its first outcome. For release scripts that
   * do not fit `release_hold`. Already part of {@link coreLua.releaseHold}.
   */
  releaseOnce,
  /**
   * Defines the hold markers and `renew_batch(renew_one)`: the watchdog's batch renewal over KEYS
   * and ARGV as the renewal scheduler sends them (refused past its deadline), replying 1 or 0 per
   * key. For a kind's own renewal script.
   */
  renewBatch,
  /**
   * Defines the request deadline and `same_holders(lock, first)`: whether a lock hash is still
   * what a force-unlock read, for force-release scripts.
   */
  sameHolders,
} as const;

/** The scripts of the reentrant lock and of the client itself. */
export const coreScripts = {
  acquire: defineScript('core/lock-acquire', acquire),
  release: defineScript('core/lock-release', release),
  handOff: defineScript('core/lock-handoff', handOff),
  forceRelease: defineScript('core/lock-force-release', forceRelease),
  holders: defineScript('core/lock-holders', holders),
  renew: defineScript('core/lock-renew', renew),
  extend: defineScript('core/lock-extend', extend),
  state: defineScript('core/lock-state', state),
  serverVersion: defineScript('core/server-version', serverVersion),
} as const;
