import { defineCommand, requestNumber } from '@deadbolt/core/kit';
import { leaseRecordKey } from '../permitExpirableKeys.js';
import { permitExpirableScripts } from '../permitExpirableScripts.js';
import { clockArgs, expirableKeys, idsArg, type LeaseUpdateInput } from './expirableInputs.js';

/**
 * Sets the lease of the permits held under `ids` to `lease` ms from now, never past its deadline
 * and never after a later update of the same hold (`expirable-update-lease.lua`): `true` when all
 * were held.
 */
export const expirableUpdateLeaseCommand = defineCommand<LeaseUpdateInput, boolean>({
  script: permitExpirableScripts.updateLease,
  keys: (input) => [...expirableKeys(input), leaseRecordKey(input.name, input.hold)],
  args: ({ ids, lease, request }, context) => [
    ...clockArgs(context),
    idsArg(ids),
    lease,
    requestNumber(request),
    context.deadline,
    context.recordTtl,
  ],
  decode: (reply) => Number(reply) === 1,
});
