import type { Contender, Feature } from './contenders/Contender.js';
import { DEADBOLT } from './contenders/deadbolt.js';
import { isDeadbolt } from './contenders/index.js';
import { advantage, summarize, type Across, type Advantage, type Figures } from './repetitions.js';

/** Which way a figure is better, for comparing Deadbolt with a peer. */
export type Better = 'higher' | 'lower';

/** One column of a scenario's table. */
export interface Column {
  readonly key: string;
  readonly label: string;
  /**
   * How the repetitions' figures combine into the table's: the median unless a check must hold
   * in every repetition (overlapping grants: the largest), which a median would hide.
   */
  readonly across?: Across;
}

/** A figure Deadbolt is compared with each peer on, and which way is better. */
export interface Headline {
  readonly key: string;
  readonly better: Better;
}

/** What a scenario is and how its table reads. */
export interface ScenarioSpec {
  readonly id: string;
  readonly title: string;
  /** One line: what is measured. */
  readonly measures: string;
  /** One line: what the floor is. */
  readonly floor: string;
  readonly columns: readonly Column[];
  /** The figures Deadbolt is compared with each peer on, side by side, and which way is better. */
  readonly headlines?: readonly Headline[];
  /** The feature a contender needs to take part; every contender takes part when absent. */
  readonly feature?: Feature;
  /** How to read the table, where a figure can mislead on its own. */
  readonly notes?: readonly string[];
}

/** One contender's figures in one scenario. */
export interface Row {
  readonly contender: string;
  readonly library: string;
  readonly driver: string;
  /** Per column: the median of the repetitions (see {@link Column.across}). */
  readonly figures: Figures;
  /**
   * Per figure: its value in each repetition, in the order they ran. Every figure's while the
   * run goes on (derived tables are computed per repetition), the headline figures' only in the
   * results written ({@link keepHeadlineRepetitions}).
   */
  repetitions?: Record<string, number[]>;
  /**
   * Per headline figure (by key): Deadbolt's on the same driver over this row's, per repetition,
   * turned so that above 1 means Deadbolt is ahead; absent on Deadbolt's own rows and where there
   * is no Deadbolt row.
   */
  deadboltAdvantage?: Record<string, Advantage>;
}

/** A contender that is not in a scenario's table, and why. */
export interface Absence {
  readonly contender: string;
  readonly reason: string;
}

/** One scenario's results. */
export interface ScenarioReport extends ScenarioSpec {
  readonly rows: Row[];
  readonly absent: Absence[];
}

/** Everything one `pnpm bench` run measured. */
export interface BenchResults {
  readonly date: string;
  readonly machine: string;
  readonly smoke: boolean;
  /** How many times each scenario with headline figures ran (see {@link renderMarkdown}'s intro). */
  readonly repetitions: number;
  durationSeconds: number;
  readonly contenders: readonly {
    readonly id: string;
    readonly library: string;
    readonly driver: string;
    readonly settings: string;
  }[];
  readonly scenarios: ScenarioReport[];
  /** The targets, checked against this run (see targets.ts). */
  targets: string[];
}

/** A scenario's report, empty: rows are added as contenders run, absences for those without the feature. */
export function startScenario(spec: ScenarioSpec, contenders: readonly Contender[]): ScenarioReport {
  const absent: Absence[] = [];
  if (spec.feature) {
    for (const contender of contenders) {
      const offered = contender.features[spec.feature] ?? `no ${spec.feature}`;
      if (offered !== true) absent.push({ contender: contender.id, reason: offered });
    }
  }
  return { ...spec, rows: [], absent };
}

/** The contenders that take part in a scenario. */
export function participants(report: ScenarioReport, contenders: readonly Contender[]): Contender[] {
  const out = new Set(report.absent.map((absence) => absence.contender));
  return contenders.filter((contender) => !out.has(contender.id));
}

/**
 * Adds a contender's figures to the report as a row (one record per repetition: the row keeps
 * their medians and every repetition's values), or its failure as an absence.
 */
export function recordOutcome(report: ScenarioReport, contender: Contender, outcome: readonly Figures[] | Error): void {
  if (outcome instanceof Error) {
    const message = outcome.message.split('\n')[0] ?? '';
    console.log(`  ${report.id}: ${contender.id} failed: ${message}`);
    report.absent.push({ contender: contender.id, reason: `failed: ${message}` });
    return;
  }
  report.rows.push({
    contender: contender.id,
    library: contender.library,
    driver: contender.driver,
    ...summarizeRow(report, outcome),
  });
}

/** A row's figures and repetitions from one record of figures per repetition, by the report's columns. */
export function summarizeRow(
  report: ScenarioSpec,
  repetitions: readonly Figures[],
): Pick<Row, 'figures' | 'repetitions'> {
  const across = Object.fromEntries(
    report.columns.flatMap((column) => (column.across ? [[column.key, column.across]] : [])),
  );
  return summarize(repetitions, across);
}

/** Fills in every row's comparison with Deadbolt on the same driver, repetition by repetition. */
export function compareWithDeadbolt(report: ScenarioReport, contenders: readonly Contender[]): void {
  const deadboltIds = new Set(contenders.filter(isDeadbolt).map((contender) => contender.id));
  const isOurs = (row: Row) => row.library === DEADBOLT;
  // A row that ran once (or was derived without repetitions) compares on its one figure.
  const values = (row: Row | undefined, key: string) =>
    row?.repetitions?.[key] ?? (row?.figures[key] === undefined ? [] : [row.figures[key]]);
  for (const row of report.rows) {
    if (isOurs(row)) continue;
    const ours = report.rows.find(
      (candidate) => deadboltIds.has(candidate.contender) && candidate.driver === row.driver,
    );
    for (const { key, better } of report.headlines ?? []) {
      const compared = advantage(values(ours, key), values(row, key), better);
      if (compared) row.deadboltAdvantage = { ...row.deadboltAdvantage, [key]: compared };
    }
  }
}

/** Drops every row's repetitions but the headline figures': the results file keeps those only. */
export function keepHeadlineRepetitions(report: ScenarioReport): void {
  const keys = new Set((report.headlines ?? []).map(({ key }) => key));
  for (const row of report.rows) {
    const kept = Object.entries(row.repetitions ?? {}).filter(([key]) => keys.has(key));
    if (kept.length > 0) row.repetitions = Object.fromEntries(kept);
    else delete row.repetitions;
  }
}

/** The results as markdown: the machine and date, the contenders, then one table per scenario. */
export function renderMarkdown(results: BenchResults): string {
  const lines = [
    '# Deadbolt benchmarks',
    '',
    `Run ${results.date} on ${results.machine}, in ${Math.round(results.durationSeconds)} s${results.smoke ? ' (smoke run: tiny sizes, figures meaningless)' : ''}.`,
    '',
    'Every figure is also given as a ratio to a floor measured in the same run on the same client, because absolute times on a shared machine drift.',
    '',
    repetitionsIntro(results.repetitions),
    '',
    '## Contenders',
    '',
    '| contender | library | settings |',
    '| --- | --- | --- |',
    ...results.contenders.map((contender) => `| ${contender.id} | ${contender.library} | ${contender.settings} |`),
    '',
    '## Targets',
    '',
    ...results.targets.map((target) => `- ${target}`),
    '',
  ];
  for (const scenario of results.scenarios) lines.push(...renderScenario(scenario));
  return `${lines.join('\n')}\n`;
}

/** What the repetitions are, for the report's intro: what is repeated, in what order, and what the tables give of them. */
function repetitionsIntro(repetitions: number): string {
  return [
    `Each scenario with headline figures (those a "Deadbolt ×" column compares) runs ${repetitions} times, interleaved across the contenders: the first repetition of every contender, then the second of every contender, and so on, so that a machine that drifts during the run weighs on all of them alike.`,
    `In scenarios 1, 2, 6 and 9a, where the contenders take turns block by block, a repetition is one of ${repetitions} equal groups of consecutive counted rounds (every contender's blocks in those rounds), and its figures are computed from those blocks alone; in scenarios 3, 3c, 4, 7, 9b and 9c a repetition is a whole run of the contender (its worker processes' session, its floors and counters), each contender's first run before any second.`,
    'Every figure in a table is the median of the repetitions (except two checks that must hold in each: overlapping grants give the largest, locks alive at the end the fewest); a headline figure is followed by its spread, from the smallest repetition to the largest, in parentheses.',
    "Each \"Deadbolt ×\" column divides Deadbolt's headline figure on the same driver by the row's repetition by repetition (Deadbolt's first with the peer's first, and so on), turned so that above 1 means Deadbolt is ahead, and gives the median ratio with its spread, as in `0.93 (0.88–0.97)`.",
    "A ratio is called ahead or behind (in the targets) only when every repetition's ratio is on the same side of 1; a spread that reaches 1 is within noise.",
    'Scenarios without headline figures (1b, 5, 8) run once; 3b and 4b are computed per repetition from the runs of 3 and 4.',
  ].join(' ');
}

function renderScenario(scenario: ScenarioReport): string[] {
  const headlines = scenario.headlines ?? [];
  const labelOf = (key: string) => scenario.columns.find((column) => column.key === key)?.label ?? key;
  const header = [
    'contender',
    ...scenario.columns.map((column) => column.label),
    ...headlines.map(({ key }) => `Deadbolt × (${labelOf(key)})`),
  ];
  const lines = [`## ${scenario.title}`, '', `Measures: ${scenario.measures}`, '', `Floor: ${scenario.floor}`, ''];
  if (headlines.length > 0) {
    lines.push(
      `Compared on: ${headlines.map(({ key, better }) => `${labelOf(key)} (${better} is better)`).join(', ')}.`,
      '',
    );
  }
  if (scenario.rows.length > 0) {
    lines.push(`| ${header.join(' | ')} |`, `|${' --- |'.repeat(header.length)}`);
    for (const row of scenario.rows) {
      const cells = scenario.columns.map(({ key }) => {
        const values = headlines.some((headline) => headline.key === key) ? row.repetitions?.[key] : undefined;
        return withSpread(
          row.figures[key],
          values === undefined ? undefined : { min: Math.min(...values), max: Math.max(...values) },
        );
      });
      const advantage = headlines.map(({ key }) => {
        const ratio = row.deadboltAdvantage?.[key];
        return ratio === undefined ? '—' : withSpread(ratio.median, ratio);
      });
      lines.push(`| ${[row.contender, ...cells, ...advantage].join(' | ')} |`);
    }
    lines.push('');
  }
  for (const absence of scenario.absent) lines.push(`- ${absence.contender}: n/a (${absence.reason})`);
  if (scenario.absent.length > 0) lines.push('');
  for (const note of scenario.notes ?? []) lines.push(`> ${note}`, '');
  return lines;
}

/** A figure with its spread over the repetitions, as `0.93 (0.88–0.97)`; alone when it ran once. */
export function withSpread(value: number | undefined, spread?: { readonly min: number; readonly max: number }): string {
  if (value === undefined || spread === undefined || spread.min === spread.max) return format(value);
  return `${format(value)} (${format(spread.min)}–${format(spread.max)})`;
}

function format(value: number | undefined): string {
  if (value === undefined) return '';
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString('en-US', { maximumSignificantDigits: 3 });
}
