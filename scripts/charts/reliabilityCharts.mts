// The charts of the reliability page, from reliability/results/latest.json: every number in them
// is a count of that file. The faults injected, by type; and per adapter and topology, the
// operations completed under them beside the overlaps found and the updates lost.
import { renderBarChart } from './barChart.mjs';
import type { Chart } from './chart.mjs';

/** The part of reliability/results/latest.json the charts read (reliability/src/results/report.ts). */
export interface ReliabilityResultsJson {
  readonly totals: { readonly faults: Readonly<Record<string, number>>; readonly faultsInjected?: number };
  readonly byScope: Readonly<
    Record<string, { readonly operations: number; readonly overlaps: number; readonly lostUpdates: number }>
  >;
}

/** The figures drawn per adapter and topology, named as the page's tables name them. */
const OUTCOMES = [
  { key: 'operations', name: 'operations completed' },
  { key: 'overlaps', name: 'overlaps found' },
  { key: 'lostUpdates', name: 'updates lost' },
] as const;

function faultsChart(page: string, results: ReliabilityResultsJson): Chart | undefined {
  // In the order of the page's table (reliability/src/results/report.ts).
  const faults = Object.entries(results.totals.faults).sort(([a], [b]) => a.localeCompare(b));
  if (faults.length === 0) return undefined;
  const id = `${page}-faults`;
  const total = results.totals.faultsInjected;
  return {
    file: `${id}.svg`,
    section: 'Faults injected',
    alt: 'Bar chart of the faults injected, by type',
    svg: renderBarChart({
      id,
      title: 'Faults injected, by type',
      subtitle: [
        total === undefined ? 'faults injected over the whole suite' : `${total} faults injected over the whole suite`,
      ],
      description: 'Horizontal bar chart of how many faults of each type the reliability suite injected.',
      series: ['faults'],
      groups: faults.map(([type, count]) => ({ label: type, values: [count] })),
    }),
  };
}

function outcomesChart(page: string, results: ReliabilityResultsJson): Chart | undefined {
  const scopes = Object.entries(results.byScope);
  if (scopes.length === 0) return undefined;
  const id = `${page}-outcomes`;
  const names = OUTCOMES.map((outcome) => outcome.name);
  return {
    file: `${id}.svg`,
    section: 'By adapter and topology',
    alt: `Bar chart of the ${names.join(', ')} per adapter and topology`,
    svg: renderBarChart({
      id,
      title: 'Operations, overlaps and lost updates, by adapter and topology',
      subtitle: ['Operations completed while faults were injected; every overlap found or update lost is a failure.'],
      description: `Horizontal bar chart of the ${names.join(', ')} for each adapter and topology, side by side.`,
      series: names,
      groups: scopes.map(([scope, figures]) => ({
        label: scope,
        values: OUTCOMES.map((outcome) => figures[outcome.key]),
      })),
    }),
  };
}

/** Every chart of the reliability page; `page` (the page's name) starts their file names. */
export function reliabilityCharts(results: ReliabilityResultsJson, page = 'reliability'): Chart[] {
  return [faultsChart(page, results), outcomesChart(page, results)].filter(
    (chart): chart is Chart => chart !== undefined,
  );
}
