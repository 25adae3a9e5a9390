import type { CommandContext, ScriptArgument } from '@deadbolt/core/kit';
import { permitTimeoutsKey } from '../permitExpirableKeys.js';
import { semaphoreChannelName } from '../semaphoreKeys.js';
import type { SemaphoreInput } from './inputs.js';

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

/**
 * KEYS of every permit-expirable script about one semaphore: the free permits at the name, the
 * held permits `{name}:timeout`, the channel `redisson_sc:{name}`.
 */
export const expirableKeys = ({ name }: SemaphoreInput): string[] => [name, permitTimeoutsKey(name), semaphoreChannelName(name)];

/** ARGV[1] and ARGV[2] of every such script: now (wall-clock ms), and the publish command. */
export const clockArgs = ({ now, publish }: CommandContext): ScriptArgument[] => [now, publish];

/** ARGV[3]: permit ids as the scripts take them, separated by spaces. */
export const idsArg = (ids: readonly string[]): string => ids.join(' ');
