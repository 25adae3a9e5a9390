import { defineCommand, requestRecordKey } from '@deadbolt/core/kit';
import { permitExpirableScripts } from '../permitExpirableScripts.js';
import { clockArgs, expirableKeys, idsArg, type PermitsAttemptInput } from './expirableInputs.js';

/** What one attempt to take permits of a permit-expirable semaphore found. */
export type ExpirableAcquireReply =
  | { readonly taken: true }
  | {
      readonly taken: false;
      /** When the earliest held permit's lease ends (wall-clock ms); `undefined` when none expires. */
      readonly expiresAt: number | undefined;
    };

/**
 * Takes one permit per id, all or none, each with a lease of `lease` ms, once per attempt and
 * never past its deadline (`expirable-try-acquire.lua`).
 */
export const expirableTryAcquireCommand = defineCommand<PermitsAttemptInput, ExpirableAcquireReply>({
  script: permitExpirableScripts.tryAcquire,
  keys: (input) => [...expirableKeys(input), requestRecordKey(input.name, input.hold)],
  args: ({ ids, lease }, context) => [...clockArgs(context), idsArg(ids), lease, context.deadline],
  decode: (reply) => {
    const [flag, score] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (Number(flag) === 1) return { taken: true };
    return { taken: false, expiresAt: score === undefined || score === null ? undefined : Number(score) };
  },
});
