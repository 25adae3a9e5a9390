// The guide "What holds under faults" (docs/guides/what-holds-under-faults.md), rendered from the
// chaos runs checked in at reliability/results/chaos.json (see reliability/src/chaos/chaosReport.ts):
// a table per lock kind and its options, a row per fault, each cell a verdict drawn from the runs'
// counts, with the counts beside it. scripts/what-holds.mts writes it; docs/test/what-holds.test.ts
// checks that the committed guide is what this renders from the committed results.

import type { ChaosRecord } from '../reliability/src/chaos/chaosRecord.js';
import type { ChaosResults } from '../reliability/src/chaos/chaosReport.js';
import { PROMISE_LEGEND, promiseEvidenceOf, promiseVerdictOf, type PromiseVerdict } from './what-holds-promises.mjs';

/** The guide, relative to the repository. */
export const WHAT_HOLDS_GUIDE = 'docs/guides/what-holds-under-faults.md';
/** The results it is rendered from, relative to the repository. */
export const CHAOS_RESULTS = 'reliability/results/chaos.json';

/** One chaos run as chaos.json lists it. */
export type ChaosRun = ChaosRecord;

/** reliability/results/chaos.json. */
export type ChaosResultsJson = ChaosResults;

/** What a run shows of a lock under its fault, weakest last. */
export type Verdict = 'exclusion kept' | PromiseVerdict | 'stale write refused' | 'not guaranteed';

const ORDER: readonly Verdict[] = [
  'exclusion kept',
  'permits kept',
  'never opened early',
  'stale write refused',
  'not guaranteed',
];

// What to use where a lock kind's exclusion is not guaranteed under a fault.
const INSTEAD: Readonly<Record<string, string>> = {
  Lock: '`FencedLock` with a store that checks its token',
  RedLock: '`FencedLock` with a store that checks its token',
  FencedLock: 'a store that checks the token of every write',
  Semaphore:
    '`PermitExpirableSemaphore` with `replicaSync` of every replica that could be promoted: no permit invented, and a lost one comes back when its lease ends',
  PermitExpirableSemaphore: '`replicaSync` of every replica that could be promoted (no permit invented)',
};
const INSTEAD_OTHERWISE = 'fencing tokens checked by the store';

/** The locks a run's figures are of. */
export function locksOf(run: ChaosRun): readonly string[] {
  if (run.lock !== undefined) return [run.lock];
  if (run.locks !== undefined && run.locks.length > 0) return run.locks;
  throw new Error(`chaos run "${run.scenario}" on ${run.adapter} names no lock (lock or locks)`);
}

/**
 * A run's verdict: `exclusion kept` when nothing overlapped, every check passed and every hold open
 * at the fault was told (or out of its critical section) before its lease could end, so no other
 * owner could have been let in; otherwise, for a run whose store checks fencing tokens (it counts
 * the stale writes refused), `stale write refused` when every check passed and no update was lost;
 * otherwise, and always for a run that only measured a setting (`measuredOnly`), `not guaranteed`.
 */
export function verdictOf(run: ChaosRun): Verdict {
  // A setting measured without a promise: even a run without overlap shows luck, not a guarantee.
  if (run.measuredOnly === true) return 'not guaranteed';
  const promise = promiseVerdictOf(run);
  if (promise !== undefined) return promise;
  const everyHolderInTime = run.holdsToldInTime + run.holdsLeftInTime >= run.holdsAtFault;
  if (run.held && run.overlaps === 0 && run.lostUpdates === 0 && everyHolderInTime) return 'exclusion kept';
  if (run.held && run.lostUpdates === 0 && run.staleWritesRefused !== undefined) return 'stale write refused';
  return 'not guaranteed';
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

// The counts behind a verdict, for one adapter's run (of every lock it hammered, together).
function evidenceOf(run: ChaosRun): string {
  const promise = promiseEvidenceOf(run);
  if (promise !== undefined) return promise;
  const locks = locksOf(run);
  const together = locks.length > 1 ? ` (${locks.join(' and ')} together)` : '';
  const open = count(run.holdsAtFault, 'open hold', 'open holds');
  const slowest = run.slowestToldMs == null ? '' : ` (the slowest ${run.slowestToldMs} ms after the fault)`;
  const told =
    run.holdsTold !== undefined
      ? `, ${run.holdsTold} of ${open} told before their work ended${slowest}`
      : run.holdsAtFault > 0
        ? `, ${run.holdsToldInTime + run.holdsLeftInTime} of ${open} told in time`
        : '';
  const refused =
    run.staleWritesRefused === undefined
      ? ''
      : `, ${count(run.staleWritesRefused, 'stale write', 'stale writes')} refused`;
  const copies =
    run.copiesAtJumps === undefined
      ? ''
      : `, the holder's copies on members with true clocks at each jump ${run.copiesAtJumps.map((jump) => `${jump.onTrueClocks} of ${jump.copies}`).join(', ')}`;
  const failed = run.measuredOnly === true ? ', measured, not promised' : run.held ? '' : ', **a check failed**';
  const overlaps = count(run.overlaps, 'overlap', 'overlaps');
  return `${run.adapter}${together}: ${overlaps} in ${run.operations} holds, ${count(run.lostUpdates, 'update', 'updates')} lost${told}${refused}${copies}${failed}`;
}

// The cell of one lock under one fault: the weakest verdict of its runs, then each run's counts.
function cellOf(lock: string, runs: readonly ChaosRun[]): { readonly verdict: string; readonly evidence: string } {
  const worst = runs.map(verdictOf).reduce((a, b) => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b));
  const told = worst === 'exclusion kept' && runs.some((run) => run.holdsAtFault > 0) ? '; holder told in time' : '';
  const verdict = worst === 'not guaranteed' ? `not guaranteed — use ${INSTEAD[lock] ?? INSTEAD_OTHERWISE}` : worst;
  return { verdict: `${verdict}${told}`, evidence: runs.map(evidenceOf).join('; ') };
}

const optionsOf = (run: ChaosRun) =>
  [
    ...(run.permits === undefined ? [] : [`${run.permits} permits`]),
    ...(run.leaseMs > 0 ? [`watchdog lease ${run.leaseMs / 1000} s`] : []),
    `\`commandTimeout\` ${run.commandTimeoutMs} ms`,
  ].join(', ');

/** The guide's markdown. */
export function renderWhatHolds(results: ChaosResultsJson): string {
  const tables = new Map<string, { readonly lock: string; readonly options: string; readonly runs: ChaosRun[] }>();
  for (const run of results.runs)
    for (const lock of locksOf(run)) {
      const key = `${lock} (${optionsOf(run)})`;
      const table = tables.get(key) ?? { lock, options: optionsOf(run), runs: [] };
      table.runs.push(run);
      tables.set(key, table);
    }
  const scenarios = [...new Map(results.runs.map((run) => [run.scenario, run.tried])).entries()];
  return [
    '---',
    'title: What holds under faults',
    'group: Guides',
    'category: Results',
    '---',
    '',
    '<!-- Generated by scripts/what-holds.mts from reliability/results/chaos.json: edit those. -->',
    '',
    '# What holds under faults',
    '',
    'What each lock kind promises when the network, a host or a clock fails, as measured: every cell',
    'is the outcome of chaos runs on real `redis-server` processes on test hosts (network namespaces),',
    'with real drivers, in `reliability/test/chaos-*.test.ts`, and gives the counts of each run. The',
    'full figures are in [the chaos results](../../reliability/results/chaos.md).',
    '',
    '- **exclusion kept**: no two holders overlapped, every check of the run passed, and every hold',
    '  open at the fault was told (its signal aborted) or out of its critical section before its lease',
    '  could end, so no other owner could have been let in.',
    '- **holder told in time**: holds were open at the fault, and each was told before its lease could end.',
    '- **stale write refused**: a holder could be overtaken untold (no Redis lock can prevent it under',
    '  that fault), and the fenced store refused every write of a stale holder: no update was lost.',
    '- **not guaranteed — use X**: a holder was not told in time, holds overlapped or an update was',
    '  lost, or the run measured a setting that promises nothing under the fault ("measured, not',
    '  promised": what happened in that run, however it went); what to use instead is named.',
    ...PROMISE_LEGEND,
    '',
    `Runs of ${results.date.slice(0, 10)} on ${results.machine}.`,
    '',
    '## The faults',
    '',
    ...scenarios.map(([scenario, tried]) => `- **${scenario}**: ${tried}.`),
    '',
    ...[...tables.entries()].flatMap(([title, table]) => [
      `## ${title}`,
      '',
      '| fault | what holds | counts |',
      '| --- | --- | --- |',
      ...scenarios
        .map(([scenario]) => [scenario, table.runs.filter((run) => run.scenario === scenario)] as const)
        .filter(([, runs]) => runs.length > 0)
        .map(([scenario, runs]) => {
          const cell = cellOf(table.lock, runs);
          return `| ${scenario} | ${cell.verdict} | ${cell.evidence} |`;
        }),
      '',
    ]),
  ].join('\n');
}
