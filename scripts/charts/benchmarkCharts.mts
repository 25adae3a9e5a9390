// The charts of the benchmarks page, from bench/results/latest.json: every number in them is a
// figure of that file. Per scenario, every contender's figure for each of its headline figures,
// each followed by Deadbolt's against each peer's on it, as ratios on a log axis around 1 (issue
// 33: ratios where higher is better and where lower is better, on one linear axis, let the largest
// hide the rest); and per contended handoff scenario, the handoff and wait p50 and p99 side by side.
// A headline figure that ran several times (issue 16) is the median of its repetitions: its bar,
// with their spread as a whisker.
import { renderBarChart, type Spread } from './barChart.mjs';
import { slug, type Chart } from './chart.mjs';

/** The part of bench/results/latest.json the charts read (written by bench/src/report.ts). */
export interface BenchResultsJson {
  readonly scenarios: readonly {
    readonly id: string;
    readonly title: string;
    readonly columns: readonly { readonly key: string; readonly label: string }[];
    readonly headlines?: readonly Headline[];
    readonly rows: readonly {
      readonly contender: string;
      readonly library: string;
      readonly driver: string;
      readonly figures: Readonly<Record<string, number>>;
      /** A headline figure's value in each repetition; absent in results from before repetitions. */
      readonly repetitions?: Readonly<Record<string, readonly number[]>>;
      /** Per headline figure, on a peer's row: Deadbolt's against the peer's on the same driver. */
      readonly deadboltAdvantage?: Readonly<Record<string, Advantage>>;
    }[];
  }[];
}

/**
 * Deadbolt's figure against a peer's as a ratio per repetition (`ratios`), turned so that above 1
 * means Deadbolt is ahead whichever way is better: their median, smallest and largest.
 */
export interface Advantage {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly ratios: readonly number[];
}

/** A figure Deadbolt is compared with the peers on. */
export interface Headline {
  readonly key: string;
  readonly better: 'higher' | 'lower';
}

type Scenario = BenchResultsJson['scenarios'][number];
type Row = Scenario['rows'][number];

/** The library name of Deadbolt's rows (bench/src/contenders/deadbolt.ts). */
const DEADBOLT = 'Deadbolt';
const isDeadbolt = (row: Row) => row.library === DEADBOLT;

/** The latency pairs drawn side by side in handoff scenarios: `<name>P50Ms` and `<name>P99Ms`. */
const PERCENTILE_PAIRS = ['handoff', 'wait'] as const;

/** A scenario is a contended handoff one when it measures the handoff latency. */
const isHandoff = (scenario: Scenario) => scenario.columns.some((column) => column.key === 'handoffP50Ms');

const labelOf = (scenario: Scenario, key: string) =>
  scenario.columns.find((column) => column.key === key)?.label ?? key;

/** A figure's spread over its repetitions; none when it ran once or every repetition gave the same (nothing to draw). */
function spreadOf(row: Row, key: string): Spread | undefined {
  const values = row.repetitions?.[key] ?? [];
  const spread = { min: Math.min(...values), max: Math.max(...values) };
  return spread.min < spread.max ? spread : undefined;
}

function headlineChart(page: string, scenario: Scenario, headline: Headline): Chart | undefined {
  const rows = scenario.rows.filter((row) => row.figures[headline.key] !== undefined);
  if (rows.length === 0) return undefined;
  const label = labelOf(scenario, headline.key);
  const id = headlineChartId(page, scenario.id, headline.key);
  const repetitions = Math.max(0, ...rows.map((row) => row.repetitions?.[headline.key]?.length ?? 0));
  const whiskers =
    repetitions > 1
      ? [`Bars: the median of ${repetitions} repetitions; whiskers: their spread, smallest to largest.`]
      : [];
  return {
    file: `${id}.svg`,
    section: scenario.title,
    alt: `Bar chart of ${scenario.title}: ${label} per contender, ${headline.better} is better`,
    svg: renderBarChart({
      id,
      title: `${scenario.title}: ${label}`,
      subtitle: [`${label}, ${headline.better} is better`, ...whiskers],
      description: `Horizontal bar chart of ${label} for each contender in "${scenario.title}" (${headline.better} is better); Deadbolt's bars are hatched and labelled in bold.${whiskers.length > 0 ? ` ${whiskers[0]}` : ''}`,
      series: [label],
      groups: rows.map((row) => ({
        label: row.contender,
        values: [row.figures[headline.key]],
        spreads: [spreadOf(row, headline.key)],
        highlight: isDeadbolt(row),
      })),
      highlightName: DEADBOLT,
    }),
  };
}

function percentileChart(page: string, scenario: Scenario, name: string): Chart | undefined {
  const p50 = `${name}P50Ms`;
  const p99 = `${name}P99Ms`;
  const keys = new Set(scenario.columns.map((column) => column.key));
  if (!keys.has(p50) || !keys.has(p99)) return undefined;
  const rows = scenario.rows.filter((row) => row.figures[p50] !== undefined || row.figures[p99] !== undefined);
  if (rows.length === 0) return undefined;
  const id = `${page}-${slug(scenario.id)}-${slug(name)}`;
  const what = `${labelOf(scenario, p50)} and ${labelOf(scenario, p99)}`;
  return {
    file: `${id}.svg`,
    section: scenario.title,
    alt: `Bar chart of ${scenario.title}: ${what} per contender, side by side`,
    svg: renderBarChart({
      id,
      title: `${scenario.title}: ${name} p50 and p99`,
      subtitle: [`${what}, lower is better`],
      description: `Horizontal bar chart of ${what} for each contender in "${scenario.title}", the two side by side; Deadbolt's bars are hatched and labelled in bold.`,
      series: ['p50', 'p99'],
      groups: rows.map((row) => ({
        label: row.contender,
        values: [row.figures[p50], row.figures[p99]],
        highlight: isDeadbolt(row),
      })),
      highlightName: DEADBOLT,
    }),
  };
}

function advantageChart(page: string, scenario: Scenario, headline: Headline): Chart | undefined {
  const peers = scenario.rows.flatMap((row) => {
    const advantage = row.deadboltAdvantage?.[headline.key];
    return advantage === undefined ? [] : [{ row, advantage }];
  });
  if (peers.length === 0) return undefined;
  const label = labelOf(scenario, headline.key);
  const id = advantageChartId(page, scenario.id, headline.key);
  const repetitions = Math.max(0, ...peers.map(({ advantage }) => advantage.ratios.length));
  const reading = `above 1: Deadbolt ahead (to the right)${repetitions > 1 ? `; median of ${repetitions} repetitions, whiskers their spread` : ''}`;
  return {
    file: `${id}.svg`,
    section: scenario.title,
    alt: `Bar chart of ${scenario.title}: Deadbolt's ${label} as a ratio to each peer's, on a log axis around 1; above 1, Deadbolt is ahead`,
    svg: renderBarChart({
      id,
      title: `${scenario.title}: Deadbolt × each peer, ${label}`,
      subtitle: [
        `${label}, ${headline.better} is better: Deadbolt's against each peer's on the same driver, as a ratio`,
        reading,
      ],
      description: `Horizontal bar chart, on a log axis around 1, of Deadbolt's ${label} against each peer's on the same driver in "${scenario.title}" (${headline.better} is better), as a ratio turned so that above 1 means Deadbolt is ahead: ${reading}.`,
      series: [label],
      groups: peers.map(({ row, advantage }) => ({
        label: row.contender,
        values: [advantage.median],
        spreads: [advantage.min < advantage.max ? { min: advantage.min, max: advantage.max } : undefined],
      })),
      axis: 'log',
      reference: { value: 1, label: '1 = even' },
    }),
  };
}

/** The id (and file name, with `.svg`) of the chart of one headline figure of a scenario. */
export function headlineChartId(page: string, scenarioId: string, key: string): string {
  return `${page}-${slug(scenarioId)}-${slug(key)}`;
}

/** The id (and file name, with `.svg`) of the chart of Deadbolt against each peer on one headline figure of a scenario. */
export function advantageChartId(page: string, scenarioId: string, key: string): string {
  return `${headlineChartId(page, scenarioId, key)}-deadbolt-vs-peers`;
}

/** Every chart of the benchmarks page; `page` (the page's name) starts their file names. */
export function benchmarkCharts(results: BenchResultsJson, page = 'benchmarks'): Chart[] {
  return results.scenarios
    .flatMap((scenario) => [
      ...(scenario.headlines ?? []).flatMap((headline) => [
        headlineChart(page, scenario, headline),
        advantageChart(page, scenario, headline),
      ]),
      ...(isHandoff(scenario) ? PERCENTILE_PAIRS.map((name) => percentileChart(page, scenario, name)) : []),
    ])
    .filter((chart): chart is Chart => chart !== undefined);
}
