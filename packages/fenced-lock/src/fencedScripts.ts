import { coreLua, defineScript } from '@deadbolt/core/kit';
import acquire from './lua/acquire.lua';
import handOff from './lua/handoff.lua';
import token from './lua/token.lua';

/** The fenced lock's own scripts; it releases, renews and force-unlocks with the plain lock's. */
export const fencedScripts = {
  acquire: defineScript('fenced-lock/acquire', `${coreLua.hold}\n${acquire}`),
  handOff: defineScript('fenced-lock/handoff', `${coreLua.passHold}\n${handOff}`),
  token: defineScript('fenced-lock/token', token),
} as const;
