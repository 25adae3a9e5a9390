import os from 'node:os';
import type { FaultType } from '../faults/FaultLog.js';
import { addFigures, type FigureRecord, type Figures } from './figures.js';

/** The published record of one full run of the suite. */
export interface ReliabilityResults {
  readonly date: string;
  readonly machine: string;
  readonly totals: Figures & { readonly faultsInjected: number };
  /** Per adapter and topology (`any`: tests without a backend). */
  readonly byScope: Record<string, Figures>;
  /** Per test file. */
  readonly byFile: Record<string, Figures>;
}

/** Adds up every test's figures of a run. */
export function summarise(records: readonly FigureRecord[], date = new Date()): ReliabilityResults {
  const totals = addFigures(records);
  return {
    date: date.toISOString(),
    machine: `${os.availableParallelism()} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    totals: { ...totals, faultsInjected: faultCount(totals) },
    byScope: groupBy(records, (record) => record.scope),
    byFile: groupBy(records, (record) => record.file),
  };
}

function groupBy(records: readonly FigureRecord[], key: (record: FigureRecord) => string): Record<string, Figures> {
  const groups = new Map<string, FigureRecord[]>();
  for (const record of records) groups.set(key(record), [...(groups.get(key(record)) ?? []), record]);
  return Object.fromEntries([...groups.keys()].sort().map((name) => [name, addFigures(groups.get(name) ?? [])]));
}

function faultCount(figures: Figures): number {
  return Object.values(figures.faults).reduce((sum, count) => sum + count, 0);
}

const COLUMNS: readonly [string, (figures: Figures) => number][] = [
  ['faults injected', faultCount],
  ['operations completed', (figures) => figures.operations],
  ['overlaps found', (figures) => figures.overlaps],
  ['updates lost', (figures) => figures.lostUpdates],
  ['overlaps after an expired lease', (figures) => figures.excusedOverlaps],
  ['stale writes fenced off', (figures) => figures.staleWritesRejected],
  ['bad inputs tried', (figures) => figures.badInputs],
  ['model-based steps run', (figures) => figures.modelSteps],
  ['Redisson-peer holds', (figures) => figures.redissonPeerHolds],
  ['Redisson-peer renewals', (figures) => figures.redissonPeerRenewals],
  ['semaphore counts off', (figures) => figures.permitMiscounts ?? 0],
  ['permits kept by killed holders', (figures) => figures.permitsLeaked ?? 0],
  ['late deliveries', (figures) => figures.lateDeliveries ?? 0],
  ['long-partition re-sends', (figures) => figures.lateResends ?? 0],
  ['latches opened early', (figures) => figures.latchesOpenedEarly ?? 0],
];

/** The results as the markdown page the docs publish. */
export function renderMarkdown(results: ReliabilityResults): string {
  const { totals } = results;
  const table = (label: string, rows: Record<string, Figures>) => [
    `| ${label} | ${COLUMNS.map(([name]) => name).join(' | ')} |`,
    `| --- |${' ---: |'.repeat(COLUMNS.length)}`,
    ...Object.entries(rows).map(([name, figures]) => `| ${name} | ${COLUMNS.map(([, value]) => value(figures)).join(' | ')} |`),
  ];
  const faultRows = (Object.entries(totals.faults) as [FaultType, number][]).sort(([a], [b]) => a.localeCompare(b));
  return [
    '# Deadbolt reliability record',
    '',
    `${results.date} — ${results.machine}`,
    '',
    'Real faults injected into real processes (lock holders, waiters and redis-server), on both',
    'adapters (ioredis, node-redis), standalone and cluster, for every lock kind: see',
    '`reliability/README.md` in the repository for what each figure counts.',
    '',
    '## Totals',
    '',
    '| figure | count |',
    '| --- | ---: |',
    `| faults injected | ${totals.faultsInjected} |`,
    `| operations completed | ${totals.operations} |`,
    `| overlaps found | ${totals.overlaps} |`,
    `| updates lost | ${totals.lostUpdates} |`,
    `| bad inputs tried | ${totals.badInputs} |`,
    `| model-based steps run | ${totals.modelSteps} |`,
    `| Redisson-peer holds | ${totals.redissonPeerHolds} |`,
    `| Redisson-peer renewals | ${totals.redissonPeerRenewals} |`,
    `| semaphore counts off | ${totals.permitMiscounts ?? 0} |`,
    `| permits kept by killed holders | ${totals.permitsLeaked ?? 0} |`,
    `| late deliveries | ${totals.lateDeliveries ?? 0} |`,
    `| long-partition re-sends | ${totals.lateResends ?? 0} |`,
    `| latches opened early | ${totals.latchesOpenedEarly ?? 0} |`,
    '',
    '## Faults injected',
    '',
    '| fault | count |',
    '| --- | ---: |',
    ...faultRows.map(([type, count]) => `| ${type} | ${count} |`),
    '',
    '## By adapter and topology',
    '',
    ...table('adapter/topology', results.byScope),
    '',
    '## By test file',
    '',
    ...table('file', results.byFile),
    '',
  ].join('\n');
}
