// The charts of the benchmarks page, from bench/results/latest.json: every number in them is a
// figure of that file. Per scenario, every contender's figure for each of its headline figures;
// per contended handoff scenario, the handoff and wait p50 and p99 side by side; and one chart of
// Deadbolt's figures relative to each scenario's floor. A headline figure that ran several times
// (issue 16) is the median of its repetitions: its bar, with their spread as a whisker.
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
    }[];
  }[];
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

/**
 * A figure relative to the scenario's floor: `ratioToFloor`, `readsRatioToFloor64`,
 * `handoffP50InIdleFloors`, `p99InFloors`; not the floor's own figures (`floorIdleMs`).
 */
const isFloorRatio = (key: string) => !key.startsWith('floor') && /Floors?\d*$/.test(key);

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

function floorRatioChart(page: string, scenarios: readonly Scenario[]): Chart | undefined {
  // One bar per Deadbolt driver, one group per scenario and figure.
  const drivers = [
    ...new Set(scenarios.flatMap((scenario) => scenario.rows.filter(isDeadbolt).map((row) => row.driver))),
  ];
  const groups = scenarios.flatMap((scenario) =>
    scenario.columns
      .filter((column) => isFloorRatio(column.key))
      .map((column) => ({
        label: `${scenario.title} — ${column.label}`,
        values: drivers.map(
          (driver) =>
            scenario.rows.find(
              (row) => isDeadbolt(row) && row.driver === driver && row.figures[column.key] !== undefined,
            )?.figures[column.key],
        ),
      }))
      .filter((group) => group.values.some((value) => value !== undefined)),
  );
  if (groups.length === 0) return undefined;
  const id = `${page}-floor-ratios`;
  return {
    file: `${id}.svg`,
    section: null,
    alt: `Bar chart of Deadbolt's figures relative to each scenario's floor, per driver (${drivers.join(', ')}); 1 is the floor`,
    svg: renderBarChart({
      id,
      title: "Deadbolt's figures relative to each scenario's floor",
      subtitle: [
        '"ratio to floor": Deadbolt\'s rate over the floor\'s, higher is better.',
        '"… / floor": Deadbolt\'s time over the floor\'s, lower is better.',
        'The dashed line at 1 is the floor itself.',
      ],
      description: `Horizontal bar chart of every figure of Deadbolt's that is relative to its scenario's floor, one bar per driver (${drivers.join(', ')}), with a dashed line at 1, the floor.`,
      series: drivers,
      groups,
      reference: { value: 1, label: '1 = the floor' },
    }),
  };
}

/** The id (and file name, with `.svg`) of the chart of one headline figure of a scenario. */
export function headlineChartId(page: string, scenarioId: string, key: string): string {
  return `${page}-${slug(scenarioId)}-${slug(key)}`;
}

/** Every chart of the benchmarks page; `page` (the page's name) starts their file names. */
export function benchmarkCharts(results: BenchResultsJson, page = 'benchmarks'): Chart[] {
  const perScenario = results.scenarios.flatMap((scenario) => [
    ...(scenario.headlines ?? []).map((headline) => headlineChart(page, scenario, headline)),
    ...(isHandoff(scenario) ? PERCENTILE_PAIRS.map((name) => percentileChart(page, scenario, name)) : []),
  ]);
  return [floorRatioChart(page, results.scenarios), ...perScenario].filter(
    (chart): chart is Chart => chart !== undefined,
  );
}
