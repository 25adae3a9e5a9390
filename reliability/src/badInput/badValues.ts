/** A wrong value for an argument, with how the results table names it. */
export interface BadValue {
  readonly label: string;
  readonly value: unknown;
}

const bad = (label: string, value: unknown): BadValue => ({ label, value });

/** Wrong types that no argument accepts. */
export const WRONG_TYPES: readonly BadValue[] = [
  bad('null', null),
  bad('a boolean', true),
  bad('an array', ['x']),
  bad('a function', () => 'x'),
  bad('a symbol', Symbol('x')),
  bad('a bigint', 10n),
];

/** Times in milliseconds no duration accepts. `Infinity` is separate: a wait time may be endless. */
export const BAD_DURATIONS: readonly BadValue[] = [
  ...WRONG_TYPES,
  bad('a numeric string', '100'),
  bad('an object', { ms: 100 }),
  bad('negative', -1),
  bad('NaN', NaN),
  bad('-Infinity', -Infinity),
  bad('fractional', 1.5),
  bad('absurdly large (1e20)', 1e20),
  // Past what a Node timer can wait: it would fire at once.
  bad('past a timer (2^31 ms)', 2 ** 31),
  bad('past safe integers', 2 ** 53 + 2),
];

/** Also refused where the time must be finite. */
export const INFINITE: BadValue = bad('Infinity', Infinity);

/** Lock names no lock kind accepts. */
export const BAD_NAMES: readonly BadValue[] = [
  bad('undefined', undefined),
  ...WRONG_TYPES,
  bad('a number', 42),
  bad('an object', { name: 'x' }),
  bad('empty', ''),
  bad('a lone "{"', '{'),
  bad('"{" with no "}"', 'orders{42'),
  bad('an empty hash tag', 'orders{}42'),
  bad('"}" before "{"', 'orders}x{'),
  bad('a lone surrogate', 'lock-\uD800'),
];

/** Owner ids no acquisition accepts (an absent owner is fine). */
export const BAD_OWNERS: readonly BadValue[] = [
  ...WRONG_TYPES,
  bad('a number', 7),
  bad('empty', ''),
  bad('whitespace', 'job 1'),
  bad('a newline', 'job\n1'),
];

/**
 * Owner ids no acquisition accepts: the above, and an id in the generated namespace (`#<n>`) that
 * holds nothing (queries accept one: asking costs nothing).
 */
export const BAD_ACQUIRE_OWNERS: readonly BadValue[] = [
  ...BAD_OWNERS,
  bad('a generated id that holds nothing', '#987654321'),
];

/** Options arguments that are not options objects (absent options are fine). */
export const BAD_OPTIONS_OBJECTS: readonly BadValue[] = [
  bad('null', null),
  bad('a number', 42),
  bad('a string', 'fast'),
  bad('an array', []),
];

/** Values that are not AbortSignals. */
export const BAD_SIGNALS: readonly BadValue[] = [
  bad('a string', 'abort'),
  bad('a plain object', { aborted: false }),
  bad('an AbortController', new AbortController()),
  bad('null', null),
];
