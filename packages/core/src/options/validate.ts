import { InvalidArgumentError } from '../errors/LockError.js';

/**
 * Argument checks shared by every public entry point, so that bad input fails with an
 * {@link InvalidArgumentError} naming the argument before anything reaches Redis.
 */

/** A lock name: a non-empty string. */
export function checkName(value: unknown, argument = 'name'): string {
  if (typeof value !== 'string')
    throw new InvalidArgumentError(argument, `expected a string, got ${describeValue(value)}`);
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
  // A lone surrogate has no UTF-8 form: drivers send U+FFFD instead, so distinct names would meet.
  if (LONE_SURROGATE.test(name))
    throw new InvalidArgumentError(
      argument,
      `is not well-formed unicode (it has a lone surrogate): ${JSON.stringify(name)}`,
    );
  const open = name.indexOf('{');
  if (open !== -1) {
    const close = name.indexOf('}', open + 1);
    if (close <= open + 1)
      throw new InvalidArgumentError(
        argument,
        `has a "{" without a non-empty {hash tag} after it: ${JSON.stringify(name)}`,
      );
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
 * The longest duration accepted, in milliseconds (about 24.8 days): the longest a Node timer
 * waits. A longer one would fire at once; a wait meant to be endless is `Infinity`.
 */
export const MAX_DURATION = 2 ** 31 - 1;

// In unicode mode a surrogate pair is one code point, so only an unpaired half matches.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/**
 * A duration in milliseconds: an integer-valued number from `min` to {@link MAX_DURATION}, or
 * `Infinity` when `allowInfinity`.
 */
export function checkDuration(
  value: unknown,
  argument: string,
  { min = 0, allowInfinity = false }: { min?: number; allowInfinity?: boolean } = {},
): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new InvalidArgumentError(argument, `expected a number of milliseconds, got ${describeValue(value)}`);
  }
  if (value === Infinity && allowInfinity) return value;
  if (!Number.isFinite(value)) throw new InvalidArgumentError(argument, `must be finite, got ${value}`);
  if (value < min) throw new InvalidArgumentError(argument, `must be at least ${min} ms, got ${value}`);
  if (value > MAX_DURATION) {
    throw new InvalidArgumentError(
      argument,
      `must be at most ${MAX_DURATION} ms (about 24.8 days), got ${value}${allowInfinity ? '; use Infinity for no limit' : ''}`,
    );
  }
  if (!Number.isInteger(value))
    throw new InvalidArgumentError(argument, `must be a whole number of milliseconds, got ${value}`);
  return value;
}

/**
 * A count: a safe whole number (at most 2^53 − 1; past it a number no longer names one integer,
 * so a count sent to Redis would not be the one asked for) of at least `min`.
 */
export function checkCount(value: unknown, argument: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidArgumentError(
      argument,
      `expected a safe whole number (at most 2^53 − 1) of at least ${min}, got ${typeof value === 'number' ? value : typeof value}`,
    );
  }
  return value;
}

/** An optional AbortSignal. */
export function checkSignal(value: unknown, argument = 'options.signal'): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal))
    throw new InvalidArgumentError(argument, `expected an AbortSignal, got ${describeValue(value)}`);
  return value;
}

/**
 * An options object whose keys are all in `allowed`. Unknown keys are rejected because a
 * misspelt option (say `leasetime`) would otherwise be silently ignored, and so are `null`
 * values, which no option takes and which defaults would otherwise silently replace.
 */
export function checkOptions<T extends object>(
  value: unknown,
  allowed: readonly string[],
  argument = 'options',
): Partial<T> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgumentError(argument, `expected an object, got ${describeValue(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new InvalidArgumentError(`${argument}.${key}`, `unknown option (known: ${allowed.join(', ')})`);
    }
    if ((value as Record<string, unknown>)[key] === null)
      throw new InvalidArgumentError(`${argument}.${key}`, 'must not be null; leave it out for the default');
  }
  return value;
}

/**
 * An object with the methods `methods`, such as an executor or a driver client: what a wrong
 * argument fails on first, before it can fail later with a bare `TypeError`.
 */
export function checkMethods(value: unknown, argument: string, methods: readonly string[], expected: string): void {
  const object = value as Record<string, unknown> | null;
  if (object === null || typeof object !== 'object' || methods.some((method) => typeof object[method] !== 'function')) {
    throw new InvalidArgumentError(argument, `expected ${expected}, got ${describeValue(value)}`);
  }
}

/** A function argument. */
export function checkFunction(value: unknown, argument: string): void {
  if (typeof value !== 'function')
    throw new InvalidArgumentError(argument, `expected a function, got ${describeValue(value)}`);
}

/** How an error message shows a wrong value. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    return `${typeof value} ${String(value)}`;
  return typeof value;
}
