// A linear scale from 0 for the bar charts: a round maximum at or above the largest value, and the
// ticks (1, 2 or 5 times a power of ten apart) that the grid lines are drawn at.

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
