import { defineScript } from './Script.js';
import acquire from './lua/lock-acquire.lua';
import forceRelease from './lua/lock-force-release.lua';
import release from './lua/lock-release.lua';
import releaseHold from './lua/release-hold.lua';
import renew from './lua/lock-renew.lua';
import state from './lua/lock-state.lua';
import serverVersion from './lua/server-version.lua';

/**
 * Lua fragments that lock kinds in other packages prepend to their own scripts, so that logic
 * every kind shares is written once. Each fragment's header says what it defines.
 */
export const coreLua = {
  /** Defines `release_hold(lock, field, lease, latch, remember, on_freed)`: one hold's release with its unlock latch. */
  releaseHold,
} as const;

/** The scripts of the reentrant lock and of the client itself. */
export const coreScripts = {
  acquire: defineScript('core/lock-acquire', acquire),
  release: defineScript('core/lock-release', `${releaseHold}\n${release}`),
  forceRelease: defineScript('core/lock-force-release', forceRelease),
  renew: defineScript('core/lock-renew', renew),
  state: defineScript('core/lock-state', state),
  serverVersion: defineScript('core/server-version', serverVersion),
} as const;
