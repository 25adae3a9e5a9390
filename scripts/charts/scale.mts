// The scales of the bar charts: a linear one from 0, to a round maximum at or above the largest
// value, with ticks 1, 2 or 5 times a power of ten apart; and a log one symmetric around 1, for
// ratios, to a nice bound, with ticks labelled as factors. The grid lines are drawn at the ticks.

export interface LinearScale {
  /** The value at the right end of the plot. */
  readonly max: number;
  /** The values grid lines and tick labels are drawn at, 0 first. */
  readonly ticks: readonly number[];
}

/** About `count` ticks from 0 to a round maximum covering `largest` (a scale 0–1 when nothing is above 0). */
export function linearScale(largest: number, count = 5): LinearScale {
  if (!(largest > 0) || !Number.isFinite(largest)) return linearScale(1, count);
  const rough = largest / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((factor) => factor * magnitude >= rough) ?? 10) * magnitude;
  const steps = Math.ceil(largest / step - 1e-9);
  // Each tick computed from its index, not by adding steps up, so float errors do not pile up.
  const ticks = Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  return { max: ticks[ticks.length - 1] ?? step, ticks };
}

/** A log scale symmetric around 1, for ratios: from 1 / bound to bound. */
export interface LogScale {
  /** The value at the right end of the plot; its reciprocal is at the left end. */
  readonly bound: number;
  /** The values grid lines and tick labels are drawn at, ascending: the reciprocals of those above 1, 1, those above 1. */
  readonly ticks: readonly number[];
}

/** The nice bounds in order: 1.25, 2, 5, then 1, 2 or 5 times a power of ten (10, 20, 50, 100…). */
function* niceBounds(): Generator<number> {
  yield* [1.25, 2, 5];
  for (let magnitude = 10; ; magnitude *= 10) yield* [magnitude, 2 * magnitude, 5 * magnitude];
}

/**
 * A log scale around 1 covering `smallest` and `largest` (ratios; neither need be on its side of
 * 1): its bound is the first nice one at or above the further of them from 1 (at least 1.25).
 * Values that are not ratios (0, negative, infinite) are left out. The ticks above 1 are the bound
 * and nice values below it at least a quarter of the axis' half apart (powers of ten first), so
 * their labels never crowd; those below 1 mirror them.
 */
export function logScale(smallest: number, largest: number): LogScale {
  const ratio = (value: number) => (value > 0 && Number.isFinite(value) ? value : 1);
  const furthest = Math.max(ratio(largest), 1 / ratio(smallest));
  // The nice bounds up to the first covering `furthest` (with a tolerance for float noise): the
  // last is the bound, the others candidate ticks.
  const nice: number[] = [];
  for (const value of niceBounds()) {
    nice.push(value);
    if (value >= furthest * (1 - 1e-9)) break;
  }
  const bound = nice.pop() ?? furthest;
  const gap = Math.log(bound) / 4;
  const isPowerOfTen = (value: number) => Number.isInteger(Math.log10(value));
  const byPreference = [
    ...nice.filter(isPowerOfTen).reverse(),
    ...nice.filter((value) => !isPowerOfTen(value)).reverse(),
  ];
  const above = [bound];
  for (const candidate of byPreference) {
    if ([1, ...above].every((tick) => Math.abs(Math.log(tick / candidate)) >= gap)) above.push(candidate);
  }
  above.sort((a, b) => a - b);
  const below = above.map((tick) => Number((1 / tick).toPrecision(12))).reverse();
  return { bound, ticks: [...below, 1, ...above] };
}
