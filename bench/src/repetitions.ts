// Every scenario with headline figures runs several times, interleaved across the contenders
// (issue 16): one run alone cannot tell a real difference from the machine's drift. This file
// holds what turns the repetitions into the report's figures, free of Redis so that it is
// unit-tested: the median per figure, the spread, and whether a ratio is called.
import { round } from './stats.js';

/** One repetition's figures, by key. */
export type Figures = Readonly<Record<string, number>>;

/** How a column's figures of the repetitions become the one in the table. */
export type Across = 'median' | 'max' | 'min';

/**
 * Deadbolt's headline figure over a peer's, per repetition, turned so that above 1 means
 * Deadbolt is ahead.
 */
export interface Advantage {
  /** The median of `ratios`: the figure the table shows. */
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** One ratio per repetition, repetition i of Deadbolt over repetition i of the peer. */
  readonly ratios: readonly number[];
  /** Ahead or behind only when every ratio is on that side of 1; otherwise within noise. */
  readonly call: Call;
}

/** What a comparison says: a side only when all the repetitions agree on it. */
export type Call = 'ahead' | 'behind' | 'within noise';

/** The median of `values` (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The repetitions' figures as one row: per key, the median (or, for a column that is a check,
 * the worst: `across` names those), and every key's values in repetition order, rounded for
 * display like the figures.
 */
export function summarize(
  repetitions: readonly Figures[],
  across: Readonly<Record<string, Across>> = {},
): { figures: Figures; repetitions: Record<string, number[]> } {
  const keys = [...new Set(repetitions.flatMap((figures) => Object.keys(figures)))];
  const values = Object.fromEntries(keys.map((key) => [key, repetitions.map((figures) => figures[key] ?? Number.NaN)]));
  const combine = {
    median,
    max: (list: readonly number[]) => Math.max(...list),
    min: (list: readonly number[]) => Math.min(...list),
  };
  return {
    figures: Object.fromEntries(keys.map((key) => [key, round(combine[across[key] ?? 'median'](values[key]!))])),
    repetitions: Object.fromEntries(keys.map((key) => [key, values[key]!.map(round)])),
  };
}

/** The repetitions of a row back as one record of figures each: what derived tables are computed from. */
export function byRepetition(repetitions: Readonly<Record<string, readonly number[]>>): Figures[] {
  const count = Math.max(0, ...Object.values(repetitions).map((values) => values.length));
  return Array.from({ length: count }, (_, index) =>
    Object.fromEntries(Object.entries(repetitions).map(([key, values]) => [key, values[index] ?? Number.NaN])),
  );
}

/**
 * Deadbolt's figures against a peer's, repetition by repetition (`mine[i]` with `theirs[i]`),
 * with `better` saying which way is better; undefined when no repetition has both figures.
 */
export function advantage(
  mine: readonly number[],
  theirs: readonly number[],
  better: 'higher' | 'lower',
): Advantage | undefined {
  const ratios = mine
    .slice(0, theirs.length)
    .map((ours, index) => (better === 'higher' ? ours / theirs[index]! : theirs[index]! / ours))
    .filter((ratio) => !Number.isNaN(ratio))
    .map(round);
  if (ratios.length === 0) return undefined;
  return {
    median: round(median(ratios)),
    min: Math.min(...ratios),
    max: Math.max(...ratios),
    ratios,
    call: callOf(ratios),
  };
}

/** Ahead when every ratio is above 1, behind when every one is below; a spread that reaches 1 is noise. */
export function callOf(ratios: readonly number[]): Call {
  if (ratios.length > 0 && ratios.every((ratio) => ratio > 1)) return 'ahead';
  if (ratios.length > 0 && ratios.every((ratio) => ratio < 1)) return 'behind';
  return 'within noise';
}
