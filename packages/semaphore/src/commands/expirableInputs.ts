import type { CommandContext, ScriptArgument } from '@deadbolt/core/kit';
import { permitTimeoutsKey } from '../permitExpirableKeys.js';
import { semaphoreChannelName } from '../semaphoreKeys.js';
import type { PermitHoldInput, SemaphoreInput } from './inputs.js';

/** The input of a command about some permits of a permit-expirable semaphore: their ids. */
export interface PermitIdsInput extends SemaphoreInput {
  /** The permit ids, hex. */
  readonly ids: readonly string[];
}

/** The input of a command that sets the lease of permits. */
export interface LeasedPermitsInput extends PermitIdsInput {
  /** The lease in milliseconds, from now. */
  readonly lease: number;
}

/** The input of one acquisition attempt: the ids and lease, and the attempt's hold id. */
export interface PermitsAttemptInput extends LeasedPermitsInput, PermitHoldInput {}

/**
 * The input of an update of the lease of held permits: the ids and lease, the hold they are held
 * under, and the update's own request id (`<instance>:<n>`, from the same counter as hold ids: a
 * later update has a higher `n`).
 */
export interface LeaseUpdateInput extends LeasedPermitsInput, PermitHoldInput {
  readonly request: string;
}

/**
 * KEYS of every permit-expirable script about one semaphore: the free permits at the name, the
 * held permits `{name}:timeout`, the channel `redisson_sc:{name}`.
 */
export const expirableKeys = ({ name }: SemaphoreInput): string[] => [
  name,
  permitTimeoutsKey(name),
  semaphoreChannelName(name),
];

/** ARGV[1] and ARGV[2] of every such script: now (wall-clock ms), and the publish command. */
export const clockArgs = ({ now, publish }: CommandContext): ScriptArgument[] => [now, publish];

/** ARGV[3]: permit ids as the scripts take them, separated by spaces. */
export const idsArg = (ids: readonly string[]): string => ids.join(' ');
