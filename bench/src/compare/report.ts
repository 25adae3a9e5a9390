import { advantage, median, type Figures } from '../repetitions.js';
import { round } from '../stats.js';
import type { ComparedDriver } from './loadBuild.js';
import type { ComparedScenario } from './scenarios.js';

/** Every run of one scenario on one driver, pair by pair: `base[i]` and `head[i]` ran one after the other. */
export interface ComparedRuns {
  readonly scenario: ComparedScenario;
  readonly driver: ComparedDriver;
  readonly base: readonly Figures[];
  readonly head: readonly Figures[];
}

/** A comparison's setting, for the report's heading. */
export interface ComparisonSetting {
  readonly date: string;
  readonly machine: string;
  readonly baseRef: string;
  readonly baseCommit: string;
  /** What the head build is: `this checkout` or the ref it was built from. */
  readonly headRef: string;
  readonly headCommit: string;
  readonly pairs: number;
}

/** One row of the report: a figure of a scenario on a driver, each build's median and the per-pair ratio. */
export interface ComparedRow {
  readonly scenario: string;
  readonly driver: ComparedDriver;
  readonly figure: string;
  readonly base: number;
  readonly head: number;
  /** The head build's figure over the base's, per pair, turned so that above 1 is better. */
  readonly ratio: ReturnType<typeof advantage>;
}

/** The report's rows: one per scenario, driver and figure. */
export function comparedRows(runs: readonly ComparedRuns[]): ComparedRow[] {
  return runs.flatMap(({ scenario, driver, base, head }) =>
    scenario.figures.map(({ key, label, better }) => {
      const of = (figures: readonly Figures[]) => figures.map((one) => one[key] ?? Number.NaN);
      return {
        scenario: scenario.title,
        driver,
        figure: label,
        base: round(median(of(base))),
        head: round(median(of(head))),
        ratio: advantage(of(head), of(base), better),
      };
    }),
  );
}

/** The report in Markdown. */
export function renderComparison(setting: ComparisonSetting, rows: readonly ComparedRow[]): string {
  const ratio = (row: ComparedRow) => (row.ratio ? `${row.ratio.median} (${row.ratio.min}–${row.ratio.max})` : 'n/a');
  return [
    `# Deadbolt: ${setting.headRef} against ${setting.baseRef}`,
    '',
    `Run ${setting.date} on ${setting.machine}: head ${setting.headRef} (${setting.headCommit}) against base ${setting.baseRef} (${setting.baseCommit}), on these of the bench's scenarios, for Deadbolt alone on one redis-server: ${[...new Set(rows.map((row) => row.scenario))].join('; ')}.`,
    '',
    `Each scenario runs ${setting.pairs} pairs of runs per driver. A run is a fresh process per build (four for scenario 3), warmed up before it is measured. The two builds' runs of a pair follow each other, the base first in every other pair, so that a machine that drifts weighs on both alike. A figure is the median of its build's runs. "Head ×" is the head's figure over the base's pair by pair, turned so that above 1 means the head is better, as the median with the spread from the smallest pair to the largest; it is called better or worse only when every pair agrees, otherwise within noise.`,
    '',
    '| scenario | driver | figure | base | head | head × | call |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${row.driver} | ${row.figure} | ${row.base.toLocaleString('en-US')} | ${row.head.toLocaleString('en-US')} | ${ratio(row)} | ${callWord(row)} |`,
    ),
    '',
  ].join('\n');
}

function callWord(row: ComparedRow): string {
  if (!row.ratio) return 'n/a';
  return row.ratio.call === 'ahead' ? 'better' : row.ratio.call === 'behind' ? 'worse' : 'within noise';
}
