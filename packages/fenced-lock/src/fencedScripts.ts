import { defineScript } from '@deadbolt/core/kit';
import acquire from './lua/acquire.lua';
import handOff from './lua/handoff.lua';
import token from './lua/token.lua';

/** The fenced lock's own scripts; it releases, renews and force-unlocks with the plain lock's. */
export const fencedScripts = {
  acquire: defineScript('fenced-lock/acquire', acquire),
  handOff: defineScript('fenced-lock/handoff', handOff),
  token: defineScript('fenced-lock/token', token),
} as const;
