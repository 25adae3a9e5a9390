// `pnpm bench`: every scenario for Deadbolt on each adapter and for the peer libraries, on
// redis-server processes of the benchmark's own, in one run; writes results/latest.json and
// results/latest.md. `--smoke` runs a tiny version (seconds) that keeps the harness working in CI
// and writes nothing.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { FAIR_LOCK, LOCK, type RegisteredKind } from '@deadbolt/conformance/kinds';
import { startReplicated, startServers, startStandalone } from '@deadbolt/test-harness';
import type { Contender } from './contenders/Contender.js';
import { CONTENDERS, isDeadbolt } from './contenders/index.js';
import type { Address } from './drivers.js';
import {
  compareWithDeadbolt,
  keepHeadlineRepetitions,
  participants,
  recordOutcome,
  renderMarkdown,
  startScenario,
  type BenchResults,
  type ScenarioSpec,
} from './report.js';
import type { Figures } from './repetitions.js';
import { fenced, FENCED } from './scenarios/fenced.js';
import { costByWaiters, fairVersusPlain, type HandoffReports } from './scenarios/derived.js';
import { handoff, handoffSpec } from './scenarios/handoff.js';
import { HELD_HANDOFFS, heldDrainMs, heldHandoffSpec } from './scenarios/heldHandoff.js';
import { listened, LISTENERS } from './scenarios/listeners.js';
import { memory, memorySpec } from './scenarios/memory.js';
import { deadboltOwnCostUs } from './scenarios/ownCost.js';
import { parallel, PARALLEL } from './scenarios/parallel.js';
import { readWrite, READ_WRITE } from './scenarios/readWrite.js';
import { redlock, REDLOCK } from './scenarios/redlock.js';
import { oneAfterTheOther, type Outcome } from './scenarios/turns.js';
import { UNCONTENDED, uncontended } from './scenarios/uncontended.js';
import { watchdog, watchdogSpec } from './scenarios/watchdog.js';
import { semaphoreContended, semaphoreContendedSpec } from './scenarios/semaphoreContended.js';
import { SEMAPHORE_UNCONTENDED, semaphoreUncontended } from './scenarios/semaphoreUncontended.js';
import { semaphoreWaiting, semaphoreWaitingSpec } from './scenarios/semaphoreWaiting.js';
import { SIZES } from './sizes.js';
import { tolerateStrayRejections } from './strayRejections.js';
import { checkTargets } from './targets.js';
import { WorkerPool } from './workers/WorkerPool.js';

tolerateStrayRejections('main');
const smoke = process.argv.includes('--smoke');
const size = SIZES[smoke ? 'smoke' : 'full'];
const started = performance.now();
const cpu = os.cpus()[0];
const results: BenchResults = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} × ${cpu?.model.trim() ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`,
  smoke,
  repetitions: size.repetitions,
  durationSeconds: 0,
  contenders: CONTENDERS.map(({ id, library, driver, settings }) => ({ id, library, driver, settings })),
  scenarios: [],
  targets: [],
};

/**
 * Runs a scenario for every contender that has its feature: `run` gets them all and returns
 * each one's figures per repetition, or its error.
 */
async function repeated(
  spec: ScenarioSpec,
  run: (contenders: readonly Contender[]) => Promise<Map<string, Outcome>>,
  contenders = CONTENDERS,
) {
  console.log(spec.title);
  const report = startScenario(spec, contenders);
  const taking = participants(report, contenders);
  const outcomes = await run(taking);
  for (const contender of taking)
    recordOutcome(report, contender, outcomes.get(contender.id) ?? new Error('no outcome'));
  results.scenarios.push(report);
  return report;
}

/** Runs a scenario with the contenders taking turns (see turns.ts), repeated when it has headline figures. */
function scenarioTogether(
  spec: ScenarioSpec,
  run: (contenders: readonly Contender[], repetitions: number) => Promise<Map<string, Outcome>>,
) {
  return repeated(spec, (contenders) => run(contenders, repetitionsOf(spec)));
}

/** Runs a scenario for one contender after the other, repeated (interleaved) when it has headline figures. */
function scenario(spec: ScenarioSpec, run: (contender: Contender) => Promise<Figures>, contenders = CONTENDERS) {
  return repeated(
    spec,
    (taking) =>
      oneAfterTheOther(taking, repetitionsOf(spec), async (contender, repetition) => {
        const started = performance.now();
        const figures = await run(contender);
        const which = repetitionsOf(spec) > 1 ? `, repetition ${repetition}` : '';
        console.log(`  ${spec.id}: ${contender.id}${which} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
        return figures;
      }),
    contenders,
  );
}

/** Only the scenarios with headline figures are repeated: the others compare Deadbolt with no one. */
function repetitionsOf(spec: ScenarioSpec): number {
  return spec.headlines === undefined ? 1 : size.repetitions;
}

const server = await startStandalone();
const address: Address = { host: server.host, port: server.port };
try {
  await scenarioTogether(UNCONTENDED, (contenders, repetitions) =>
    uncontended(contenders, address, size.uncontended, repetitions),
  );
  const deadbolts = CONTENDERS.filter(isDeadbolt);
  const listenersReport = await repeated(
    LISTENERS,
    (contenders) => uncontended(contenders, address, size.uncontended, repetitionsOf(LISTENERS)),
    [...deadbolts, ...deadbolts.map(listened)],
  );
  for (const peer of CONTENDERS.filter((contender) => !isDeadbolt(contender))) {
    listenersReport.absent.push({ contender: peer.id, reason: "Deadbolt only: what its own client's events cost" });
  }
  const replicated = await startReplicated();
  try {
    const fencedReport = await scenario(
      FENCED,
      (contender) => fenced(contender, replicated, size.fenced),
      CONTENDERS.filter(isDeadbolt),
    );
    for (const peer of CONTENDERS.filter((contender) => !isDeadbolt(contender))) {
      fencedReport.absent.push({ contender: peer.id, reason: 'no fencing tokens or replica sync' });
    }
  } finally {
    await replicated.stop();
  }
  await scenarioTogether(PARALLEL, (contenders, repetitions) =>
    parallel(contenders, address, size.parallel, repetitions),
  );
  await handoffScenarios();
  await scenario(READ_WRITE, (contender) => readWrite(contender, address, size.readWrite));
  const servers = await startServers(5);
  try {
    const addresses = servers.nodes.map(({ host, port }) => ({ host, port }));
    await scenarioTogether(REDLOCK, (contenders, repetitions) =>
      redlock(contenders, addresses, size.redlock, repetitions),
    );
  } finally {
    await servers.stop();
  }
  await scenario(watchdogSpec(size.watchdog), (contender) => watchdog(contender, address, size.watchdog));
  const memoryReport = await scenario(
    memorySpec(size.memory),
    (contender) => memory(contender, address, size.memory),
    CONTENDERS.filter(isDeadbolt),
  );
  for (const peer of CONTENDERS.filter((contender) => !isDeadbolt(contender))) {
    memoryReport.absent.push({
      contender: peer.id,
      reason: "not run: the 10-minute budget of `pnpm bench` fits the million cycles for Deadbolt's adapters only",
    });
  }
  await semaphoreScenarios();
} finally {
  await server.stop();
}

for (const report of results.scenarios) {
  compareWithDeadbolt(report, CONTENDERS);
  keepHeadlineRepetitions(report);
}
results.targets = checkTargets(results, { ownCostUs: await deadboltOwnCostUs(size.ownCostCycles) });
results.durationSeconds = (performance.now() - started) / 1000;
const markdown = renderMarkdown(results);
console.log(`\n${markdown}`);
if (!smoke) {
  const dir = new URL('../results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('latest.json', dir), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(new URL('latest.md', dir), markdown);
}

/**
 * Scenarios 3 and 4: every contender's plain lock and the fair locks, with 8 and 128 waiters, on
 * 4 worker processes; then the tables derived from them, and the plain lock held 2 and 20 ms.
 */
async function handoffScenarios(): Promise<void> {
  let pool = await WorkerPool.start(4);
  try {
    const run = (kind: RegisteredKind, waiters: number) =>
      scenario(handoffSpec(kind, waiters, size.handoff), async (contender) => {
        try {
          return await handoff(pool, contender, address, {
            kind,
            tasks: waiters / pool.size,
            holdMs: 0,
            ...size.handoff,
          });
        } catch (error) {
          // A run that broke may have left a worker mid-job: start afresh for the next one.
          await pool.close();
          pool = await WorkerPool.start(4);
          throw error;
        }
      });
    // One after the other, in this order.
    const handoffs: HandoffReports = {
      plain8: await run(LOCK, 8),
      plain128: await run(LOCK, 128),
      fair8: await run(FAIR_LOCK, 8),
      fair128: await run(FAIR_LOCK, 128),
    };
    results.scenarios.push(costByWaiters(handoffs, CONTENDERS), fairVersusPlain(handoffs, CONTENDERS));
    for (const { holdMs, waiters } of HELD_HANDOFFS) {
      const drainMs = heldDrainMs(holdMs, waiters);
      await scenario(heldHandoffSpec(holdMs, waiters), (contender) =>
        handoff(pool, contender, address, { kind: LOCK, tasks: waiters / pool.size, holdMs, drainMs, ...size.held }),
      );
    }
  } finally {
    await pool.close();
  }
}

/**
 * Scenario 9: the semaphores, uncontended (the contenders taking turns), contended by 4 worker
 * processes taking one permit and two at a time, and the load their waiters put on Redis.
 */
async function semaphoreScenarios(): Promise<void> {
  const { permits, contended, waiting } = size.semaphore;
  await scenarioTogether(SEMAPHORE_UNCONTENDED, (contenders, repetitions) =>
    semaphoreUncontended(contenders, address, size.semaphore, repetitions),
  );
  let pool = await WorkerPool.start(4);
  try {
    for (const shape of [
      { limit: permits, permits: 1 },
      { limit: permits, permits: 2 },
    ]) {
      await scenario(semaphoreContendedSpec(shape, pool.size, contended), async (contender) => {
        try {
          return await semaphoreContended(pool, contender, address, shape, contended);
        } catch (error) {
          // A run that broke may have left a worker mid-job: start afresh for the next one.
          await pool.close();
          pool = await WorkerPool.start(4);
          throw error;
        }
      });
    }
  } finally {
    await pool.close();
  }
  await scenario(semaphoreWaitingSpec({ permits, ...waiting }), (contender) =>
    semaphoreWaiting(contender, address, { permits, ...waiting }),
  );
}
