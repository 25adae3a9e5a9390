import { defineCommand, requestRecordKey } from '@deadbolt/core/kit';
import { permitExpirableScripts } from '../permitExpirableScripts.js';
import { announcedKeys, decodePermits, type PermitsRequestInput } from './inputs.js';

/**
 * Adds `permits` (negative: takes some away) to the free permits once per request, never past its
 * deadline, and announces the number added when positive, as Redisson's `addPermits` does
 * (`expirable-add-permits.lua`): resolves the free permits afterwards.
 */
export const expirableAddPermitsCommand = defineCommand<PermitsRequestInput, number>({
  script: permitExpirableScripts.addPermits,
  keys: (input) => [...announcedKeys(input), requestRecordKey(input.name, input.request)],
  args: ({ permits }, { publish, deadline, recordTtl }) => [permits, publish, deadline, recordTtl],
  decode: decodePermits,
});
