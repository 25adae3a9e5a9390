import { semaphoreChannelName } from '../semaphoreKeys.js';

/** A semaphore command's input: the semaphore's name. */
export interface SemaphoreInput {
  readonly name: string;
}

/** The input of a command that takes, sets or adds a number of permits. */
export interface PermitsInput extends SemaphoreInput {
  readonly permits: number;
}

/**
 * The input of a command that changes the permits once per request: its request id, the same in
 * every copy of the request the driver sends (`LockRuntime.newHoldId()`, one per call).
 */
export interface RequestInput extends SemaphoreInput {
  readonly request: string;
}

/** The input of a request that sets or adds a number of permits. */
export interface PermitsRequestInput extends PermitsInput, RequestInput {}

/**
 * The input of a command about one acquisition attempt of a `Semaphore`: its hold id
 * (`LockRuntime.newHoldId()`, one per attempt), under which the permits it took are held.
 */
export interface PermitHoldInput extends SemaphoreInput {
  readonly hold: string;
}

/** The semaphore, its channel `redisson_sc:{name}`: the first KEYS of a script that announces a change. */
export const announcedKeys = ({ name }: SemaphoreInput): string[] => [name, semaphoreChannelName(name)];

/**
 * A number of permits as Redis replies it: an integer, or the decimal string stored (drivers reply
 * a script's string as a string); nil, a semaphore that has no key, has none.
 */
export function decodePermits(reply: unknown): number {
  return reply === null ? 0 : Number(reply);
}
