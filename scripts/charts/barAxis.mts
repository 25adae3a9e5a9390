// Where a bar chart puts values across its plot: on a linear axis from 0, bars start at 0 and go
// right; on a log axis symmetric around 1 (for ratios), bars start at 1 and go right for values
// above it, left for values below, a ratio and its reciprocal (2 and 0.5) equally far.
import { linearScale, logScale } from './scale.mjs';

export interface BarAxis {
  /** The values grid lines and tick labels are drawn at, ascending. */
  readonly ticks: readonly number[];
  /** The value bars start at: 0, or 1 on a log axis. */
  readonly origin: number;
  /** Where a value is across the plot: 0 at its left end, 1 at its right end. */
  position(value: number): number;
}

/** A linear axis from 0 to a round maximum covering `values` (nothing below 0 is drawn). */
export function linearAxis(values: readonly number[]): BarAxis {
  const scale = linearScale(Math.max(0, ...values));
  return { ticks: scale.ticks, origin: 0, position: (value) => Math.max(0, value) / scale.max };
}

/** A log axis around 1 covering `values` (ratios; any that is not, such as 0, at the axis' end). */
export function logAxis(values: readonly number[]): BarAxis {
  const ratios = values.filter((value) => value > 0 && Number.isFinite(value));
  const scale = logScale(Math.min(1, ...ratios), Math.max(1, ...ratios));
  const span = 2 * Math.log(scale.bound);
  return {
    ticks: scale.ticks,
    origin: 1,
    position: (value) => (value > 0 ? Math.min(1, Math.max(0, 0.5 + Math.log(value) / span)) : 0),
  };
}

/** Whether a value's bar goes left from the origin (a ratio below 1 on a log axis), its value written on its left. */
export const pointsLeft = (axis: BarAxis, value: number) => axis.position(value) < axis.position(axis.origin);
