import { defineCommand } from '@deadbolt/core/kit';
import { permitExpirableScripts } from '../permitExpirableScripts.js';
import { clockArgs, expirableKeys, idsArg, type LeasedPermitsInput } from './expirableInputs.js';

/** What one attempt to take permits of a permit-expirable semaphore found. */
export type ExpirableAcquireReply =
  | { readonly taken: true }
  | {
      readonly taken: false;
      /** When the earliest held permit's lease ends (wall-clock ms); `undefined` when none expires. */
      readonly expiresAt: number | undefined;
    };

/**
 * Takes one permit per id, all or none, each with a lease of `lease` ms
 * (`expirable-try-acquire.lua`).
 */
export const expirableTryAcquireCommand = defineCommand<LeasedPermitsInput, ExpirableAcquireReply>({
  script: permitExpirableScripts.tryAcquire,
  keys: expirableKeys,
  args: ({ ids, lease }, context) => [...clockArgs(context), idsArg(ids), lease],
  decode: (reply) => {
    const [flag, score] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (Number(flag) === 1) return { taken: true };
    return { taken: false, expiresAt: score === undefined || score === null ? undefined : Number(String(score)) };
  },
});
