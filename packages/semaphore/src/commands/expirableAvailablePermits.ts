import { defineCommand } from '@deadbolt/core/kit';
import { permitExpirableScripts } from '../permitExpirableScripts.js';
import { clockArgs, expirableKeys } from './expirableInputs.js';
import { decodePermits, type SemaphoreInput } from './inputs.js';

/** Reclaims expired permits, then reads the free ones (`expirable-available-permits.lua`). */
export const expirableAvailablePermitsCommand = defineCommand<SemaphoreInput, number>({
  script: permitExpirableScripts.availablePermits,
  keys: expirableKeys,
  args: (_, context) => clockArgs(context),
  decode: decodePermits,
});
