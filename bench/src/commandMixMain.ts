// `pnpm --filter @deadbolt/bench command-mix`: the profile behind the commands-per-acquisition
// figures of `pnpm bench` (issue 33). Runs scenarios 1, 3 (8 waiters), 3c (2 ms holds, 8
// waiters) and 9b (1 of 4 permits) once each, smaller than `pnpm bench`, for Deadbolt on each
// adapter and the peers that lead those scenarios, and writes which commands Redis ran per
// acquisition to results/command-mix.{json,md}. Counts, not times: they hardly depend on what
// else the machine does.
import { writeFile } from 'node:fs/promises';
import { LOCK } from '@deadbolt/conformance/kinds';
import { startStandalone } from '@deadbolt/test-harness';
import { commandMixOf } from './commandMix.js';
import type { Contender } from './contenders/Contender.js';
import { contender as contenderById } from './contenders/index.js';
import type { Address } from './drivers.js';
import type { Figures } from './repetitions.js';
import { handoff } from './scenarios/handoff.js';
import { semaphoreContended } from './scenarios/semaphoreContended.js';
import { uncontended } from './scenarios/uncontended.js';
import { tolerateStrayRejections } from './strayRejections.js';
import { WorkerPool } from './workers/WorkerPool.js';

tolerateStrayRejections('command-mix');

const CONTENDER_IDS = [
  'deadbolt/ioredis',
  'deadbolt/node-redis',
  'deadbolt/valkey-glide',
  'redis-semaphore/ioredis',
  'redlock-universal/ioredis',
  'node-redisson/ioredis',
];
const HANDOFF = { acquisitionsPerProcess: 150, maxMs: 2_000, drainMs: 1_500, idleFloorSamples: 20, leaseMs: 3_000 };
const SEMAPHORE = {
  tasksPerProcess: 4,
  holdMs: 2,
  acquisitionsPerProcess: 150,
  maxMs: 2_000,
  drainMs: 1_500,
  idleFloorSamples: 20,
};

interface MixRow {
  readonly contender: string;
  /** The figure the mix divides, per acquisition (or cycle). */
  readonly commandsPerAcquisition: number;
  readonly mix: [command: string, perAcquisition: number][];
  /** Scenario 9b: how its waits split (see semaphoreContended.ts), for the ioredis/node-redis gap. */
  readonly waits?: { readonly p50Ms: number; readonly underHoldPercent: number };
}

interface MixScenario {
  readonly title: string;
  readonly rows: MixRow[];
}

const contenders = CONTENDER_IDS.map(contenderById);
const server = await startStandalone();
const address: Address = { host: server.host, port: server.port };
const scenarios: MixScenario[] = [];
try {
  scenarios.push(await scenario1());
  const pool = await WorkerPool.start(4);
  try {
    for (const holdMs of [0, 2]) {
      scenarios.push(
        await eachContender(
          `${holdMs === 0 ? '3. Contended handoff' : '3c. Contended, 2 ms holds'}: 8 waiters`,
          contenders,
          (contender) => handoff(pool, contender, address, { kind: LOCK, tasks: 2, holdMs, ...HANDOFF }),
        ),
      );
    }
    scenarios.push(
      await eachContender(
        '9b. Semaphore, contended: 1 of 4 permits per acquisition',
        contenders.filter((contender) => contender.features.semaphore === true),
        (contender) => semaphoreContended(pool, contender, address, { limit: 4, permits: 1 }, SEMAPHORE),
      ),
    );
  } finally {
    await pool.close();
  }
} finally {
  await server.stop();
}

const dir = new URL('../results/', import.meta.url);
await writeFile(
  new URL('command-mix.json', dir),
  `${JSON.stringify({ date: new Date().toISOString(), scenarios }, null, 2)}\n`,
);
await writeFile(new URL('command-mix.md', dir), render(scenarios));
console.log(render(scenarios));

async function scenario1(): Promise<MixScenario> {
  console.log('1. Uncontended lock + unlock');
  const outcomes = await uncontended(contenders, address, { cycles: 300, blocks: 1 }, 1);
  return {
    title: '1. Uncontended lock + unlock (per cycle)',
    rows: contenders.map((contender) => {
      const outcome = outcomes.get(contender.id);
      if (!(outcome instanceof Array) || outcome[0] === undefined)
        throw new Error(`${contender.id}: ${outcome instanceof Error ? outcome.message : 'no figures'}`);
      return mixRow(contender, outcome[0], outcome[0].commandsPerCycle ?? Number.NaN);
    }),
  };
}

async function eachContender(
  title: string,
  taking: readonly Contender[],
  run: (contender: Contender) => Promise<Figures>,
): Promise<MixScenario> {
  console.log(title);
  const rows: MixRow[] = [];
  for (const contender of taking) {
    const figures = await run(contender);
    rows.push(mixRow(contender, figures, figures.commandsPerAcquisition ?? Number.NaN));
  }
  return { title, rows };
}

function mixRow(contender: Contender, figures: Figures, commandsPerAcquisition: number): MixRow {
  const { waitP50Ms, waitsUnderHoldPercent } = figures;
  return {
    contender: contender.id,
    commandsPerAcquisition,
    mix: commandMixOf(figures),
    ...(waitP50Ms === undefined || waitsUnderHoldPercent === undefined
      ? {}
      : { waits: { p50Ms: waitP50Ms, underHoldPercent: waitsUnderHoldPercent } }),
  };
}

function render(all: readonly MixScenario[]): string {
  const lines = [
    '# Which commands Redis runs per acquisition',
    '',
    `Run ${new Date().toISOString()} by \`pnpm --filter @deadbolt/bench command-mix\`: scenarios 1, 3, 3c and 9b of \`pnpm bench\`, once each and smaller, with every command Redis ran (script-run ones included, the benchmark's own probes left out) counted by name from \`INFO commandstats\` and divided by the acquisitions (scenario 1: by the lock + unlock cycles). Counts, not times.`,
  ];
  for (const { title, rows } of all) {
    const commands = [...new Set(rows.flatMap((row) => row.mix.map(([command]) => command)))];
    const per = (row: MixRow, command: string) => row.mix.find(([name]) => name === command)?.[1] ?? 0;
    commands.sort((a, b) => Math.max(...rows.map((row) => per(row, b))) - Math.max(...rows.map((row) => per(row, a))));
    lines.push(
      '',
      `## ${title}`,
      '',
      `| contender | all | ${commands.join(' | ')} |`,
      `| --- | ---: |${' ---: |'.repeat(commands.length)}`,
    );
    for (const row of rows) {
      const cells = commands.map((command) => format(per(row, command)));
      lines.push(`| ${row.contender} | ${format(row.commandsPerAcquisition)} | ${cells.join(' | ')} |`);
    }
    const split = rows.filter((row) => row.waits !== undefined);
    if (split.length > 0) {
      lines.push('', '| contender | wait p50 ms | waits shorter than a hold |', '| --- | ---: | ---: |');
      for (const { contender, waits } of split)
        lines.push(`| ${contender} | ${format(waits?.p50Ms ?? 0)} | ${format(waits?.underHoldPercent ?? 0)} % |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function format(value: number): string {
  return value === 0 ? '–' : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}
