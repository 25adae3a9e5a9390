import { defineCommand, type RenewCommand } from '@deadbolt/core/kit';
import { permitTimeoutsKey } from '../permitExpirableKeys.js';
import { permitExpirableScripts } from '../permitExpirableScripts.js';

/**
 * The watchdog's batch renewal of held permits (`expirable-renew.lua`). Each hold the watchdog
 * keeps is one acquisition: its `name` is the semaphore's, its `field` the permit ids separated
 * by spaces, its `hold` an id of its own. KEYS are the holds' `{name}:timeout` sets; ARGV the
 * lease, now (wall-clock ms), then each hold's ids. The reply: renewed (`true`) or gone, per hold.
 */
export const expirableRenewCommand: RenewCommand = defineCommand({
  script: permitExpirableScripts.renew,
  keys: ({ holds }) => holds.map((hold) => permitTimeoutsKey(hold.name)),
  args: ({ lease, holds }, { now }) => [lease, now, ...holds.map((hold) => hold.field)],
  decode: (reply) => (Array.isArray(reply) ? reply.map((renewed) => Number(renewed) === 1) : []),
});
