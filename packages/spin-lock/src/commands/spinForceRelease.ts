import {
  decodeDone,
  defineCommand,
  holderArguments,
  holdMarkersKey,
  requestRecordKey,
  type ForceReleaseInput,
} from '@deadbolt/core/kit';
import { spinScripts } from '../spinScripts.js';

/**
 * Deletes a spin lock if its hash is still as read, announcing nothing; `true` when it was deleted
 * (`force-release.lua`). Once per request, never past its deadline.
 */
export const spinForceRelease = defineCommand<ForceReleaseInput, boolean>({
  script: spinScripts.forceRelease,
  keys: ({ name, request }) => [name, holdMarkersKey(name), requestRecordKey(name, request)],
  args: ({ holders }, { deadline, recordTtl }) => [deadline, recordTtl, ...holderArguments(holders)],
  decode: decodeDone,
});
