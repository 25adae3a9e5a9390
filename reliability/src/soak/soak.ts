// `pnpm soak [--minutes N] [--faults] [--runs-per-check N]`: many more model-based runs than the
// test suite makes, for a given time, over every lock kind and group on every adapter and
// topology of the matrix (DEADBOLT_BACKENDS narrows it), with a lost-update check under
// contention between model checks; `--faults` also runs the standalone backends through the
// harness's fault proxy with varying latency and jitter. Writes reliability/results/soak.{json,md}
// and exits non-zero when anything failed. Every failure is listed with the line that replays it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKENDS, startBackend, type Backend } from '@deadbolt/conformance/connect';
import {
  checkGroupModel,
  checkModel,
  GROUP_MODEL_KINDS,
  MODEL_KINDS,
  type GroupKind,
  type ModelKind,
  type ModelReport,
} from '@deadbolt/conformance/model';
import { setup, teardown } from '@deadbolt/test-harness/global-setup';
import { contend } from './contention.js';
import { proxied, type ProxiedBackend } from './proxied.js';
import { renderSoakMarkdown, type SoakEntry, type SoakResults } from './soakReport.js';

const RESULTS_DIR = fileURLToPath(new URL('../../results/', import.meta.url));

interface Options {
  readonly minutes: number;
  readonly faults: boolean;
  readonly runsPerCheck: number;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at === -1 ? undefined : argv[at + 1];
  };
  const minutes = Number(value('--minutes') ?? 30);
  const runsPerCheck = Number(value('--runs-per-check') ?? 5);
  if (!(minutes > 0) || !(runsPerCheck > 0))
    throw new Error('usage: soak [--minutes N>0] [--faults] [--runs-per-check N>0]');
  return { minutes, faults: argv.includes('--faults'), runsPerCheck };
}

type Subject = { readonly single: ModelKind } | { readonly group: GroupKind };

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const deadline = performance.now() + options.minutes * 60_000;
  setup();
  const backends: Backend[] = [];
  const proxies: ProxiedBackend[] = [];
  const entries = new Map<string, SoakEntry>();
  let faults = 0;
  let writes = 0;
  let lostUpdates = 0;
  try {
    for (const { adapter, topology } of BACKENDS) {
      const backend = await startBackend(adapter, topology);
      backends.push(backend);
      if (options.faults && topology === 'standalone') proxies.push(await proxied(backend));
    }
    const targets = [...backends, ...proxies.map((each) => each.backend)];
    const subjects: Subject[] = [
      ...MODEL_KINDS.map((single) => ({ single })),
      ...GROUP_MODEL_KINDS.map((group) => ({ group })),
    ];
    // Backends take turns, so a short soak still covers every one of them.
    const work = subjects.flatMap((subject) => targets.map((backend) => ({ backend, subject })));
    for (let i = 0; performance.now() < deadline; i++) {
      const { backend, subject } = work[i % work.length]!;
      const proxy = proxies.find((each) => each.backend === backend)?.proxy;
      if (proxy) {
        proxy.setLatency({ ms: Math.floor(Math.random() * 5), jitterMs: Math.floor(Math.random() * 15) });
        faults += 1;
      }
      const budget = {
        runs: options.runsPerCheck,
        minSteps: 10,
        maxSteps: 22,
        timeLimit: deadline - performance.now(),
      };
      const report: ModelReport =
        'single' in subject
          ? await checkModel(subject.single, backend, budget)
          : await checkGroupModel(subject.group, backend, budget);
      const key = `${report.kind} on ${report.backend}`;
      const entry = entries.get(key) ?? {
        kind: report.kind,
        backend: report.backend,
        runs: 0,
        steps: 0,
        overlaps: 0,
        seeds: [],
        failures: [],
      };
      entry.runs += report.runs;
      entry.steps += report.steps;
      entry.overlaps += report.overlaps + (report.failure?.categories.includes('overlap') ? 1 : 0);
      entry.seeds.push(report.seed);
      if (report.failure) {
        entry.failures.push({
          seed: report.seed,
          replay: report.failure.replay,
          categories: report.failure.categories,
          message: report.failure.message,
        });
        console.log(`FAILED ${key}: [${report.failure.categories.join(', ')}] replay with ${report.failure.replay}`);
      }
      entries.set(key, entry);
      if ('single' in subject && i % 3 === 0 && performance.now() < deadline) {
        const contention = await contend(subject.single, backend, `soak:contention:${process.pid}:${i}`);
        writes += contention.writes;
        lostUpdates += contention.lostUpdates;
      }
      if (i % work.length === work.length - 1)
        console.log(
          `soak: ${Math.round((deadline - performance.now()) / 1000)} s left, ${[...entries.values()].reduce((sum, each) => sum + each.steps, 0)} steps so far`,
        );
    }
  } finally {
    for (const each of proxies) await each.close().catch(() => undefined);
    for (const backend of backends) await backend.close().catch(() => undefined);
    await teardown();
  }
  const list = [...entries.values()].sort((a, b) => `${a.kind} ${a.backend}`.localeCompare(`${b.kind} ${b.backend}`));
  const sum = (field: 'runs' | 'steps' | 'overlaps') => list.reduce((total, entry) => total + entry[field], 0);
  const results: SoakResults = {
    date: startedAt.toISOString(),
    minutes: options.minutes,
    faultProxy: options.faults,
    totals: {
      runs: sum('runs'),
      steps: sum('steps'),
      faults,
      overlaps: sum('overlaps'),
      lostUpdates,
      contendedWrites: writes,
      failures: list.reduce((total, entry) => total + entry.failures.length, 0),
    },
    entries: list,
  };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'soak.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'soak.md'), renderSoakMarkdown(results));
  const { totals } = results;
  console.log(
    `soak: ${totals.runs} runs, ${totals.steps} steps, ${totals.faults} faults, ${totals.overlaps} overlaps, ${totals.lostUpdates} lost updates, ${totals.failures} failures; written to reliability/results/soak.{json,md}`,
  );
  return totals.failures + totals.overlaps + totals.lostUpdates === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
