import type { Figures } from '../repetitions.js';
import { percentile } from '../stats.js';
import type { ContendResult, CyclesResult } from './jobs.js';
import type { ComparedDriver } from './loadBuild.js';
import { runWorkers } from './runWorkers.js';

/** A figure a comparison reports, and which way is better. */
export interface ComparedFigure {
  readonly key: string;
  readonly label: string;
  readonly better: 'higher' | 'lower';
}

/** One of the bench's scenarios, as a comparison of two builds runs it. */
export interface ComparedScenario {
  /** What `--scenario` names it by. */
  readonly id: string;
  readonly title: string;
  readonly figures: readonly ComparedFigure[];
  /** One run of the scenario on the build at `checkout`: its figures. */
  run(checkout: string, driver: ComparedDriver, port: number, run: number): Promise<Figures>;
}

const CYCLE_FIGURES: readonly ComparedFigure[] = [
  { key: 'cyclesPerSecond', label: 'cycles/s', better: 'higher' },
  { key: 'clientCpuUs', label: 'client CPU µs/cycle', better: 'lower' },
];

// The sizes of the bench's scenarios 1 and 2 (src/sizes.ts) times three: one run in a process of
// its own, without a floor block between, takes about as long as a repetition there.
function cyclesScenario(id: string, title: string, tasks: number, cyclesPerTask: number): ComparedScenario {
  return {
    id,
    title,
    figures: CYCLE_FIGURES,
    async run(checkout, driver, port) {
      const [result] = await runWorkers<CyclesResult>([
        { checkout, driver, port, work: { kind: 'cycles', tasks, cyclesPerTask } },
      ]);
      const { ms, cycles, clientCpuUs } = result!;
      return { cyclesPerSecond: (cycles * 1000) / ms, clientCpuUs: clientCpuUs / cycles };
    },
  };
}

const PROCESSES = 4;
const ACQUISITIONS_PER_PROCESS = 300;

// The bench's scenario 3: 4 processes take one lock in turn with a near-zero hold.
function handoffScenario(tasksPerProcess: number): ComparedScenario {
  return {
    id: `handoff-${PROCESSES * tasksPerProcess}`,
    title: `3. Contended handoff: ${PROCESSES * tasksPerProcess} waiters`,
    figures: [
      { key: 'acquisitionsPerSecond', label: 'acquisitions/s', better: 'higher' },
      { key: 'waitP99Ms', label: 'wait p99 ms', better: 'lower' },
    ],
    async run(checkout, driver, port, run) {
      const name = `bench:compare:handoff:${process.pid}:${run}`;
      const results = await runWorkers<ContendResult>(
        Array.from({ length: PROCESSES }, () => ({
          checkout,
          driver,
          port,
          work: { kind: 'contend', name, tasks: tasksPerProcess, acquisitions: ACQUISITIONS_PER_PROCESS },
        })),
      );
      const waits = results.flatMap((result) => result.waitsMs);
      const ms = Math.max(...results.map((result) => result.ms));
      return { acquisitionsPerSecond: (waits.length * 1000) / ms, waitP99Ms: percentile(waits, 99) };
    },
  };
}

/** Scenarios 1, 2 and 3 of the bench, as the comparison runs them. */
export const COMPARED_SCENARIOS: readonly ComparedScenario[] = [
  cyclesScenario('uncontended', '1. Uncontended lock + unlock', 1, 4_500),
  cyclesScenario('parallel', '2. Parallel: 256 tasks on distinct keys', 256, 60),
  handoffScenario(2),
  handoffScenario(32),
];
