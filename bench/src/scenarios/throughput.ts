// The throughput scenarios (1 and 2): the contenders take turns (turns.ts), and each one's floor
// runs right after each of its lock's blocks, so that drift weighs on floor and lock alike.
import type { Contender, Mutex } from '../contenders/Contender.js';
import type { Address } from '../drivers.js';
import { commandMixFigures } from '../commandMix.js';
import { floorMutex, measured, total, type Measured } from '../measure.js';
import type { Column } from '../report.js';
import { takeTurns, type Outcome, type Rounds } from './turns.js';

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
    { key: 'commandsPerCycle', label: `Redis commands/${unit}` },
    { key: 'floorCommandsPerCycle', label: 'floor Redis commands' },
  ];
}

/**
 * Runs the rounds of `options` after one of warm-up, the contenders taking turns; in each round
 * every contender runs one block on its locks (`locks` names them), then one on as many floor
 * locks (two trivial EVALSHA per cycle, on the same client). `block` makes `cyclesPerBlock`
 * cycles on the locks it is given.
 */
export function throughput(
  contenders: readonly Contender[],
  address: Address,
  options: Rounds & { readonly cyclesPerBlock: number; readonly locks: (contender: Contender) => readonly string[] },
  block: (locks: readonly Mutex[]) => Promise<unknown>,
): Promise<Map<string, Outcome>> {
  return takeTurns(contenders, options, async (contender) => {
    const session = await contender.connect(address);
    const { counter } = session.connection;
    const locks = options.locks(contender).map((name) => session.mutex(name));
    const floorLocks = locks.map(() => floorMutex(session.connection));
    let lockBlocks: Measured[] = [];
    let floorBlocks: Measured[] = [];
    let sent = 0;
    return {
      block: async (counted) => {
        const sentBefore = counter.sent;
        const lock = await measured(address, () => block(locks));
        const sentInBlock = counter.sent - sentBefore;
        const floor = await measured(address, () => block(floorLocks));
        if (!counted) return;
        lockBlocks.push(lock);
        floorBlocks.push(floor);
        sent += sentInBlock;
      },
      takeFigures: () => {
        const taken = figures(total(lockBlocks), total(floorBlocks), sent, options.cyclesPerBlock * lockBlocks.length);
        [lockBlocks, floorBlocks, sent] = [[], [], 0];
        return taken;
      },
      close: () => session.close(),
    };
  });
}

function figures(lock: Measured, floor: Measured, sent: number, cycles: number): Record<string, number> {
  const cyclesPerSecond = (cycles / lock.ms) * 1000;
  const floorCyclesPerSecond = (cycles / floor.ms) * 1000;
  const perCycle = (ms: number) => (ms * 1000) / cycles;
  return {
    cyclesPerSecond,
    floorCyclesPerSecond,
    ratioToFloor: cyclesPerSecond / floorCyclesPerSecond,
    roundTripsPerCycle: (sent + lock.server.subscriptionCommands) / cycles,
    clientCpuUsPerCycle: perCycle(lock.clientCpuMs),
    floorClientCpuUsPerCycle: perCycle(floor.clientCpuMs),
    serverCpuUsPerCycle: perCycle(lock.server.cpuMs),
    floorServerCpuUsPerCycle: perCycle(floor.server.cpuMs),
    commandsPerCycle: lock.server.commands / cycles,
    floorCommandsPerCycle: floor.server.commands / cycles,
    ...commandMixFigures(lock.server.byCommand, cycles),
  };
}
