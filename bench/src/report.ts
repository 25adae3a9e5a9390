import type { Contender, Feature } from './contenders/Contender.js';
import { DEADBOLT } from './contenders/deadbolt.js';
import { isDeadbolt } from './contenders/index.js';
import { round } from './stats.js';

/** Which way a figure is better, for comparing Deadbolt with a peer. */
export type Better = 'higher' | 'lower';

/** One column of a scenario's table. */
export interface Column {
  readonly key: string;
  readonly label: string;
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
  readonly figures: Readonly<Record<string, number>>;
  /**
   * Per headline figure (by key): Deadbolt's on the same driver over this row's, turned so that
   * above 1 means Deadbolt is ahead; absent on Deadbolt's own rows and where there is no Deadbolt row.
   */
  deadboltAdvantage?: Record<string, number>;
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
  durationSeconds: number;
  readonly contenders: readonly { readonly id: string; readonly library: string; readonly driver: string; readonly settings: string }[];
  readonly scenarios: ScenarioReport[];
  /** The targets, checked against this run (see targets.ts). */
  targets: string[];
}

/** A scenario's report, empty: rows are added as contenders run, absences for those without the feature. */
export function startScenario(spec: ScenarioSpec, contenders: readonly Contender[]): ScenarioReport {
  const absent: Absence[] = [];
  if (spec.feature) {
    for (const contender of contenders) {
      const offered = contender.features[spec.feature];
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
 * Runs one contender's part of a scenario: its row on success, an absence with the error when
 * it fails (a peer that breaks must not stop the run, nor be dropped silently).
 */
export async function addRow(report: ScenarioReport, contender: Contender, run: () => Promise<Record<string, number>>): Promise<void> {
  const started = performance.now();
  const outcome = await run().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  recordOutcome(report, contender, outcome, performance.now() - started);
}

/** Adds a contender's figures to the report as a row, or its failure as an absence. */
export function recordOutcome(report: ScenarioReport, contender: Contender, outcome: Record<string, number> | Error, elapsedMs?: number): void {
  const took = elapsedMs === undefined ? '' : ` (${(elapsedMs / 1000).toFixed(1)} s)`;
  if (outcome instanceof Error) {
    const message = outcome.message.split('\n')[0] ?? '';
    console.log(`  ${report.id}: ${contender.id} failed: ${message}`);
    report.absent.push({ contender: contender.id, reason: `failed: ${message}` });
    return;
  }
  console.log(`  ${report.id}: ${contender.id}${took}`);
  report.rows.push({ contender: contender.id, library: contender.library, driver: contender.driver, figures: roundAll(outcome) });
}

/** Fills in every row's comparison with Deadbolt on the same driver. */
export function compareWithDeadbolt(report: ScenarioReport, contenders: readonly Contender[]): void {
  const deadboltIds = new Set(contenders.filter(isDeadbolt).map((contender) => contender.id));
  const isOurs = (row: Row) => row.library === DEADBOLT;
  for (const row of report.rows) {
    if (isOurs(row)) continue;
    const ours = report.rows.find((candidate) => deadboltIds.has(candidate.contender) && candidate.driver === row.driver);
    for (const { key, better } of report.headlines ?? []) {
      const mine = ours?.figures[key];
      const theirs = row.figures[key];
      if (mine === undefined || theirs === undefined) continue;
      row.deadboltAdvantage = { ...row.deadboltAdvantage, [key]: round(better === 'higher' ? mine / theirs : theirs / mine) };
    }
  }
}

/** Every figure rounded for display (3 significant digits). */
export function roundAll(figures: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, round(value)]));
}

/** The results as markdown: the machine and date, the contenders, then one table per scenario. */
export function renderMarkdown(results: BenchResults): string {
  const lines = [
    '# Deadbolt benchmarks',
    '',
    `Run ${results.date} on ${results.machine}, in ${Math.round(results.durationSeconds)} s${results.smoke ? ' (smoke run: tiny sizes, figures meaningless)' : ''}.`,
    '',
    'Every figure is also given as a ratio to a floor measured in the same run on the same client, because absolute times on a shared machine drift. ' +
      'Each "Deadbolt ×" column compares one headline figure of Deadbolt on the same driver with the row\'s: above 1 means Deadbolt is ahead.',
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

function renderScenario(scenario: ScenarioReport): string[] {
  const headlines = scenario.headlines ?? [];
  const labelOf = (key: string) => scenario.columns.find((column) => column.key === key)?.label ?? key;
  const header = ['contender', ...scenario.columns.map((column) => column.label), ...headlines.map(({ key }) => `Deadbolt × (${labelOf(key)})`)];
  const lines = [`## ${scenario.title}`, '', `Measures: ${scenario.measures}`, '', `Floor: ${scenario.floor}`, ''];
  if (headlines.length > 0) {
    lines.push(`Compared on: ${headlines.map(({ key, better }) => `${labelOf(key)} (${better} is better)`).join(', ')}.`, '');
  }
  if (scenario.rows.length > 0) {
    lines.push(`| ${header.join(' | ')} |`, `|${' --- |'.repeat(header.length)}`);
    for (const row of scenario.rows) {
      const cells = scenario.columns.map((column) => format(row.figures[column.key]));
      const advantage = headlines.map(({ key }) => {
        const ratio = row.deadboltAdvantage?.[key];
        return ratio === undefined ? '—' : format(ratio);
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

function format(value: number | undefined): string {
  if (value === undefined) return '';
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString('en-US', { maximumSignificantDigits: 3 });
}
