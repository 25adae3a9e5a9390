// Scenario 1c: what the client's events cost. Deadbolt's uncontended cycle, on each driver,
// without listeners and with a no-op listener on every client event, taking turns.
import type { LockClientEvents } from '@deadbolt/core';
import type { Contender } from '../contenders/Contender.js';
import { connectDeadbolt, DEADBOLT } from '../contenders/deadbolt.js';
import type { ScenarioSpec } from '../report.js';
import { throughputColumns } from './throughput.js';

/** The library name of the rows with listeners: compared with Deadbolt's own, never counted as a peer. */
export const DEADBOLT_LISTENED = `${DEADBOLT} with listeners`;

// Every event a LockClient emits: a listener on each is the most an application can ask for.
const EVENTS: readonly (keyof LockClientEvents)[] = [
  'acquired',
  'released',
  'waitStarted',
  'waitEnded',
  'renewed',
  'lockLost',
  'handledError',
];

/** Scenario 1c's table. */
export const LISTENERS: ScenarioSpec = {
  id: 'listeners',
  title: '1c. Client events: the cost of a listener',
  measures:
    "scenario 1's cycle for Deadbolt alone, on each driver, on a client without listeners and on one with a no-op listener on every client event (acquired, released, waitStarted, waitEnded, renewed, lockLost, handledError), taking turns.",
  floor: 'as in scenario 1.',
  columns: throughputColumns('cycle'),
  headlines: [{ key: 'cyclesPerSecond', better: 'higher' }],
  notes: [
    '"Deadbolt ×" on a row with listeners is its cycles/s without listeners over those with: above 1 is what listening costs.',
  ],
};

/** `contender` (a Deadbolt one) on clients with a no-op listener on every event. */
export function listened(contender: Contender): Contender {
  return {
    ...contender,
    id: `${contender.id} + listeners`,
    library: DEADBOLT_LISTENED,
    settings: `${contender.settings}; a no-op listener on every client event`,
    connect: async (address, options) => {
      const session = await connectDeadbolt(contender.driver, address, options);
      for (const event of EVENTS) session.client.on(event, () => undefined);
      return session;
    },
  };
}
