import { defineCommand, requestRecordKey } from '@deadbolt/core/kit';
import { permitExpirableScripts } from '../permitExpirableScripts.js';
import { clockArgs, expirableKeys, idsArg, type PermitIdsInput } from './expirableInputs.js';
import { decodePermits } from './inputs.js';

/** The input of a release of permits by id: the ids, and the id whose record keeps the outcome. */
export interface ReleasePermitsInput extends PermitIdsInput {
  /**
   * Names the record that keeps this release's outcome, the same however often a driver sends it:
   * the hold id of the acquisition attempt that took the permits (or whose outcome was not
   * learned), so that the attempt, arriving later, takes nothing; or a new id per `tryRelease` call.
   */
  readonly request: string;
}

/**
 * Gives back the permits held under `ids`, once per record (`expirable-release.lua`): resolves how
 * many were held.
 */
export const expirableReleaseCommand = defineCommand<ReleasePermitsInput, number>({
  script: permitExpirableScripts.release,
  keys: (input) => [...expirableKeys(input), requestRecordKey(input.name, input.request)],
  args: ({ ids }, context) => [...clockArgs(context), idsArg(ids), context.recordTtl],
  decode: decodePermits,
});
