import { defineCommand } from '@deadbolt/core/kit';
import { permitExpirableScripts } from '../permitExpirableScripts.js';
import { clockArgs, expirableKeys, idsArg, type LeasedPermitsInput } from './expirableInputs.js';

/** Sets the lease of the permits held under `ids` to `lease` ms from now (`expirable-update-lease.lua`): `true` when all were held. */
export const expirableUpdateLeaseCommand = defineCommand<LeasedPermitsInput, boolean>({
  script: permitExpirableScripts.updateLease,
  keys: expirableKeys,
  args: ({ ids, lease }, context) => [...clockArgs(context), idsArg(ids), lease],
  decode: (reply) => Number(reply) === 1,
});
