import { defineCommand, unlockLatchKey } from '@deadbolt/core/kit';
import { permitExpirableScripts } from '../permitExpirableScripts.js';
import { clockArgs, expirableKeys, idsArg, type PermitIdsInput } from './expirableInputs.js';

/** The input of a release of permits by id: the ids, and the request's id for its latch. */
export interface ReleasePermitsInput extends PermitIdsInput {
  /**
   * Names this release request, the same however often a driver sends it: its latch remembers the
   * first outcome for a re-sent copy. A held acquisition's own id (its retries count as the same
   * request), or a new id per `tryRelease` call.
   */
  readonly request: string;
}

/** Gives back the permits held under `ids` (`expirable-release.lua`): resolves how many were held. */
export const expirableReleaseCommand = defineCommand<ReleasePermitsInput, number>({
  script: permitExpirableScripts.release,
  keys: (input) => [...expirableKeys(input), unlockLatchKey(input.name, input.request)],
  args: ({ ids }, context) => [...clockArgs(context), idsArg(ids), context.unlockLatchTtl],
  decode: (reply) => Number(reply),
});
