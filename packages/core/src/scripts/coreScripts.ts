import { defineScript } from './Script.js';
import acquire from './lua/lock-acquire.lua';
import forceRelease from './lua/lock-force-release.lua';
import release from './lua/lock-release.lua';
import renew from './lua/lock-renew.lua';
import state from './lua/lock-state.lua';
import serverVersion from './lua/server-version.lua';

/** The scripts of the reentrant lock and of the client itself. */
export const coreScripts = {
  acquire: defineScript('core/lock-acquire', acquire),
  release: defineScript('core/lock-release', release),
  forceRelease: defineScript('core/lock-force-release', forceRelease),
  renew: defineScript('core/lock-renew', renew),
  state: defineScript('core/lock-state', state),
  serverVersion: defineScript('core/server-version', serverVersion),
} as const;
