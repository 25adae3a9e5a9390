import { decodeDone, defineCommand, renewBatchCommand, type LeasedHoldInput } from '@deadbolt/core/kit';
import { rwlockScripts } from '../rwlockScripts.js';

/** Renews read and write holds in batches, for the watchdog (`renew.lua`). */
export const readWriteRenew = renewBatchCommand(rwlockScripts.renew);

/**
 * Lengthens one read hold of `field` to at least `lease` (`renew.lua` with one key, the batch's
 * ARGV layout): other owners' holds share the hash, so a read hold is only ever lengthened, and
 * the order in which extends arrive does not matter. Never past its deadline. `false` when it
 * does not stand.
 */
export const readExtend = defineCommand<LeasedHoldInput, boolean>({
  script: rwlockScripts.renew,
  keys: ({ name }) => [name],
  args: ({ lease, field, hold }, { deadline }) => [lease, deadline, field, hold],
  decode: (reply) => Array.isArray(reply) && decodeDone(reply[0]),
});
