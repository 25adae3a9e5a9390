import { defineCommand, type RenewCommand } from '@deadbolt/core/kit';
import { leaseRecordKey, permitTimeoutsKey } from '../permitExpirableKeys.js';
import { permitExpirableScripts } from '../permitExpirableScripts.js';

/**
 * The watchdog's batch renewal of held permits (`expirable-renew.lua`), refused past its deadline.
 * Each hold the watchdog keeps is one acquisition: its `name` is the semaphore's, its `field` the
 * permit ids separated by spaces, its `hold` the hold id of the attempt that took them. KEYS are
 * each hold's `{name}:timeout` set and lease record; ARGV the lease, now (wall-clock ms), the
 * deadline, then each hold's ids. The reply: renewed (`true`) or gone, per hold.
 */
export const expirableRenewCommand: RenewCommand = defineCommand({
  script: permitExpirableScripts.renew,
  keys: ({ holds }) => holds.flatMap((hold) => [permitTimeoutsKey(hold.name), leaseRecordKey(hold.name, hold.hold)]),
  args: ({ lease, holds }, { now, deadline }) => [lease, now, deadline, ...holds.map((hold) => hold.field)],
  decode: (reply) => (Array.isArray(reply) ? reply.map((renewed) => Number(renewed) === 1) : []),
});
