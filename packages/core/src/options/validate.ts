import { InvalidArgumentError } from '../errors/LockError.js';

/**
 * Argument checks shared by every public entry point, so that bad input fails with an
 * {@link InvalidArgumentError} naming the argument before anything reaches Redis.
 */

/** A lock name: a non-empty string. */
export function checkName(value: unknown, argument = 'name'): string {
  if (typeof value !== 'string') throw new InvalidArgumentError(argument, `expected a string, got ${describe(value)}`);
  if (value.length === 0) throw new InvalidArgumentError(argument, 'must not be empty');
  return value;
}

/**
 * A lock name: a non-empty string whose braces, if any, form a Redis Cluster hash tag. A name
 * with a `{` but no non-empty `{tag}` after it would hash differently from the keys derived from
 * it (`prefix:name`), so in a cluster a lock could be taken but never released.
 */
export function checkLockName(value: unknown, argument = 'name'): string {
  const name = checkName(value, argument);
  const open = name.indexOf('{');
  if (open !== -1) {
    const close = name.indexOf('}', open + 1);
    if (close <= open + 1) throw new InvalidArgumentError(argument, `has a "{" without a non-empty {hash tag} after it: ${JSON.stringify(name)}`);
  }
  return name;
}

/** An owner id chosen by the caller: a non-empty string without whitespace. */
export function checkOwner(value: unknown, argument = 'options.owner'): string {
  const owner = checkName(value, argument);
  if (/\s/.test(owner)) throw new InvalidArgumentError(argument, 'must not contain whitespace');
  return owner;
}

/**
 * A duration in milliseconds: a finite integer-valued number >= `min`, or `Infinity` when
 * `allowInfinity`.
 */
export function checkDuration(
  value: unknown,
  argument: string,
  { min = 0, allowInfinity = false }: { min?: number; allowInfinity?: boolean } = {},
): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new InvalidArgumentError(argument, `expected a number of milliseconds, got ${describe(value)}`);
  }
  if (value === Infinity && allowInfinity) return value;
  if (!Number.isFinite(value)) throw new InvalidArgumentError(argument, `must be finite, got ${value}`);
  if (value < min) throw new InvalidArgumentError(argument, `must be at least ${min} ms, got ${value}`);
  if (!Number.isInteger(value)) throw new InvalidArgumentError(argument, `must be a whole number of milliseconds, got ${value}`);
  return value;
}

/** An optional AbortSignal. */
export function checkSignal(value: unknown, argument = 'options.signal'): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal)) throw new InvalidArgumentError(argument, `expected an AbortSignal, got ${describe(value)}`);
  return value;
}

/**
 * An options object whose keys are all in `allowed`. Unknown keys are rejected because a
 * misspelt option (say `leasetime`) would otherwise be silently ignored.
 */
export function checkOptions<T extends object>(value: unknown, allowed: readonly string[], argument = 'options'): Partial<T> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgumentError(argument, `expected an object, got ${describe(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new InvalidArgumentError(`${argument}.${key}`, `unknown option (known: ${allowed.join(', ')})`);
    }
  }
  return value as Partial<T>;
}

/** A function argument. */
export function checkFunction(value: unknown, argument: string): void {
  if (typeof value !== 'function') throw new InvalidArgumentError(argument, `expected a function, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value;
}
