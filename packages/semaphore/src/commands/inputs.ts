import { semaphoreChannelName } from '../semaphoreKeys.js';

/** A semaphore command's input: the semaphore's name. */
export interface SemaphoreInput {
  readonly name: string;
}

/** The input of a command that takes, sets or adds a number of permits. */
export interface PermitsInput extends SemaphoreInput {
  readonly permits: number;
}

/** KEYS of a script that changes the permits and announces it: the semaphore, its channel. */
export const announcedKeys = ({ name }: SemaphoreInput): string[] => [name, semaphoreChannelName(name)];

/**
 * A number of permits as Redis replies it: an integer, or the decimal string stored (drivers reply
 * a script's string as a string); nil, a semaphore that has no key, has none.
 */
export function decodePermits(reply: unknown): number {
  return reply === null ? 0 : Number(String(reply));
}
