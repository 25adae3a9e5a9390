import { expect, it } from 'vitest';
import { commandMixFigures, commandMixOf } from '../src/commandMix.js';
import { counterDelta, sumByCommand, type ServerCounters } from '../src/commandStats.js';

const counters = (byCommand: Record<string, number>): ServerCounters => ({
  commands: Object.values(byCommand).reduce((sum, calls) => sum + calls, 0),
  subscriptionCommands: 0,
  scriptCalls: 0,
  ttlCommands: 0,
  cpuMs: 0,
  byCommand,
});

it('the command mix of a run is what Redis ran in it, by name, per acquisition, less the probes', () => {
  const delta = counterDelta(counters({ evalsha: 10, time: 4 }), counters({ evalsha: 40, time: 24, pttl: 20, set: 4 }));
  expect(delta.byCommand).toEqual({ evalsha: 30, time: 20, pttl: 20, set: 4 });
  const figures = commandMixFigures(delta.byCommand, 10, { evalsha: 10, set: 4 });
  expect(figures).toEqual({ 'command:evalsha': 2, 'command:time': 2, 'command:pttl': 2 });
  // Most frequent first; other figures beside the mix are not part of it.
  expect(commandMixOf({ ...figures, 'command:time': 3, commandsPerAcquisition: 7 })).toEqual([
    ['time', 3],
    ['evalsha', 2],
    ['pttl', 2],
  ]);
});

it('measurements add up command by command, and names that cancel out go', () => {
  expect(sumByCommand([{ get: 2, set: 1 }, { get: 3 }, { set: -1 }])).toEqual({ get: 5 });
});
