import { randomBytes } from 'node:crypto';
import { InvalidArgumentError } from '@deadbolt/core';

/** The bytes of a permit id: Redisson's `ServiceManager.generateId()` draws 16 random bytes. */
const PERMIT_ID_BYTES = 16;

/** A permit id as Redisson writes and reads it: the hex dump of its bytes (an even number of hex digits). */
const PERMIT_ID = /^(?:[0-9a-fA-F]{2})+$/;

/**
 * `count` fresh permit ids, each 32 lowercase hex digits (16 random bytes), as Redisson makes
 * them. The sorted set stores each id's bytes, not its text, as Redisson does, so an id is
 * interchangeable between the two.
 */
export function newPermitIds(count: number): string[] {
  return Array.from({ length: count }, () => randomBytes(PERMIT_ID_BYTES).toString('hex'));
}

/**
 * Checks a permit id given by a caller: a non-empty string of hex digit pairs (any length, either
 * case, as Redisson decodes them).
 *
 * @throws `InvalidArgumentError` naming `argument`
 */
export function checkPermitId(value: unknown, argument = 'permitId'): string {
  if (typeof value !== 'string' || !PERMIT_ID.test(value)) {
    throw new InvalidArgumentError(
      argument,
      `must be a permit id (hex digits, two per byte), got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`,
    );
  }
  return value;
}
