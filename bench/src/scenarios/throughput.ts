// The throughput scenarios (1 and 2) run every contender together, block by block, so that a
// machine that drifts during the scenario weighs on all of them alike, and on each contender's
// floor as on its lock.
import type { Contender, LockSession, Mutex } from '../contenders/Contender.js';
import type { Address } from '../drivers.js';
import { floorMutex, measured, total, type Measured } from '../measure.js';
import type { Column } from '../report.js';

/** The columns of a throughput scenario's table; `unit` names one cycle (cycle, acquisition). */
export function throughputColumns(unit: string): Column[] {
  return [
    { key: 'cyclesPerSecond', label: `${unit}s/s` },
    { key: 'floorCyclesPerSecond', label: 'floor cycles/s' },
    { key: 'ratioToFloor', label: 'ratio to floor' },
    { key: 'roundTripsPerCycle', label: `round trips/${unit}` },
    { key: 'clientCpuUsPerCycle', label: `client CPU µs/${unit}` },
    { key: 'floorClientCpuUsPerCycle', label: 'floor client CPU µs' },
    { key: 'serverCpuUsPerCycle', label: `server CPU µs/${unit}` },
    { key: 'floorServerCpuUsPerCycle', label: 'floor server CPU µs' },
  ];
}

/** A contender's figures, or why it has none. */
export type Outcome = Record<string, number> | Error;

interface Subject {
  readonly contender: Contender;
  readonly session: LockSession;
  readonly locks: readonly Mutex[];
  readonly floorLocks: readonly Mutex[];
  readonly lockBlocks: Measured[];
  readonly floorBlocks: Measured[];
  sent: number;
  failure?: Error;
}

/**
 * Runs `blocks` rounds after one of warm-up; in each round every contender runs one block on its
 * locks (`locks` names them), then one on as many floor locks (two trivial EVALSHA per cycle, on
 * the same client). `block` makes `cyclesPerBlock` cycles on the locks it is given.
 */
export async function throughput(
  contenders: readonly Contender[],
  address: Address,
  options: { readonly blocks: number; readonly cyclesPerBlock: number; readonly locks: (contender: Contender) => readonly string[] },
  block: (locks: readonly Mutex[]) => Promise<unknown>,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const subjects: Subject[] = [];
  for (const contender of contenders) {
    try {
      const session = await contender.connect(address);
      const locks = options.locks(contender).map((name) => session.mutex(name));
      const floorLocks = locks.map(() => floorMutex(session.connection));
      subjects.push({ contender, session, locks, floorLocks, lockBlocks: [], floorBlocks: [], sent: 0 });
    } catch (error) {
      outcomes.set(contender.id, asError(error));
    }
  }
  try {
    for (let round = -1; round < options.blocks; round++) {
      for (const subject of subjects.filter((candidate) => !candidate.failure)) {
        try {
          const { counter } = subject.session.connection;
          const sentBefore = counter.sent;
          const lock = await measured(address, () => block(subject.locks));
          const sent = counter.sent - sentBefore;
          const floor = await measured(address, () => block(subject.floorLocks));
          // Round -1 warms both up and is not counted.
          if (round < 0) continue;
          subject.lockBlocks.push(lock);
          subject.floorBlocks.push(floor);
          subject.sent += sent;
        } catch (error) {
          subject.failure = asError(error);
        }
      }
    }
  } finally {
    await Promise.allSettled(subjects.map((subject) => subject.session.close()));
  }
  const cycles = options.cyclesPerBlock * options.blocks;
  for (const subject of subjects) outcomes.set(subject.contender.id, subject.failure ?? figures(subject, cycles));
  return outcomes;
}

function figures(subject: Subject, cycles: number): Record<string, number> {
  const lock = total(subject.lockBlocks);
  const floor = total(subject.floorBlocks);
  const cyclesPerSecond = (cycles / lock.ms) * 1000;
  const floorCyclesPerSecond = (cycles / floor.ms) * 1000;
  const perCycle = (ms: number) => (ms * 1000) / cycles;
  return {
    cyclesPerSecond,
    floorCyclesPerSecond,
    ratioToFloor: cyclesPerSecond / floorCyclesPerSecond,
    roundTripsPerCycle: (subject.sent + lock.server.subscriptionCommands) / cycles,
    clientCpuUsPerCycle: perCycle(lock.clientCpuMs),
    floorClientCpuUsPerCycle: perCycle(floor.clientCpuMs),
    serverCpuUsPerCycle: perCycle(lock.server.cpuMs),
    floorServerCpuUsPerCycle: perCycle(floor.server.cpuMs),
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
