/** The `p`th percentile (0..100) of `values`, by nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** The time on a clock shared by the processes of one machine, in milliseconds. */
export function sharedNow(): number {
  return performance.timeOrigin + performance.now();
}

/** Rounds for display: 3 significant digits. */
export function round(value: number): number {
  return Number.isFinite(value) ? Number(value.toPrecision(3)) : value;
}
