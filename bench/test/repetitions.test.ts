import { describe, expect, it } from 'vitest';
import { CONTENDERS } from '../src/contenders/index.js';
import { advantage, byRepetition, callOf, median, summarize } from '../src/repetitions.js';
import {
  compareWithDeadbolt,
  keepHeadlineRepetitions,
  recordOutcome,
  startScenario,
  withSpread,
  type BenchResults,
  type ScenarioReport,
} from '../src/report.js';
import { costByWaiters } from '../src/scenarios/derived.js';
import { oneAfterTheOther, takeTurns } from '../src/scenarios/turns.js';
import { peerTarget } from '../src/targets.js';

// What turns the repetitions into the report (issue 16), without Redis: medians, spreads, the
// ratios paired repetition by repetition, and a side called only when every ratio agrees on it.

const [ours, peer, other] = CONTENDERS.filter((contender) => contender.driver === 'ioredis') as [
  (typeof CONTENDERS)[number],
  (typeof CONTENDERS)[number],
  (typeof CONTENDERS)[number],
];

/** A scenario with one headline (cycles/s, higher is better) and a check column. */
function report(): ScenarioReport {
  return startScenario(
    {
      id: 'test',
      title: 'T. Test',
      measures: 'm',
      floor: 'f',
      columns: [
        { key: 'cyclesPerSecond', label: 'cycles/s' },
        { key: 'overlaps', label: 'overlaps', across: 'max' },
      ],
      headlines: [{ key: 'cyclesPerSecond', better: 'higher' }],
    },
    CONTENDERS,
  );
}

const cycles = (...values: number[]) => values.map((cyclesPerSecond) => ({ cyclesPerSecond, overlaps: 0 }));

describe('median and summary', () => {
  it('takes the middle value, the mean of the middle two for an even count, NaN for none', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('gives each figure its median, a check column its worst, and keeps every repetition rounded', () => {
    const summary = summarize(
      [
        { rate: 100, overlaps: 0, alive: 10 },
        { rate: 300.04, overlaps: 2, alive: 9 },
        { rate: 200, overlaps: 0, alive: 10 },
      ],
      { overlaps: 'max', alive: 'min' },
    );
    expect(summary.figures).toEqual({ rate: 200, overlaps: 2, alive: 9 });
    expect(summary.repetitions).toEqual({ rate: [100, 300, 200], overlaps: [0, 2, 0], alive: [10, 9, 10] });
    expect(byRepetition(summary.repetitions)).toEqual([
      { rate: 100, overlaps: 0, alive: 10 },
      { rate: 300, overlaps: 2, alive: 9 },
      { rate: 200, overlaps: 0, alive: 10 },
    ]);
  });
});

describe('ratios per repetition', () => {
  it('pairs repetition i with repetition i, turned so that above 1 is ahead', () => {
    // Medians alone would say 200 / 200 = 1; the pairs say 2, 0.5 and 1.5.
    const higher = advantage([200, 100, 300], [100, 200, 200], 'higher');
    expect(higher).toEqual({ median: 1.5, min: 0.5, max: 2, ratios: [2, 0.5, 1.5], call: 'within noise' });
    expect(advantage([1, 2, 4], [2, 3, 5], 'lower')?.ratios).toEqual([2, 1.5, 1.25]);
    expect(advantage([], [1], 'higher')).toBeUndefined();
  });

  it('calls ahead or behind only when every ratio is on that side of 1', () => {
    expect(callOf([1.1, 1.3, 1.02])).toBe('ahead');
    expect(callOf([0.88, 0.93, 0.97])).toBe('behind');
    // The spread crosses 1, or touches it: noise, whatever the median says.
    expect(callOf([0.8, 0.9, 1.05])).toBe('within noise');
    expect(callOf([0.9, 0.95, 1])).toBe('within noise');
    expect(callOf([])).toBe('within noise');
  });

  it('writes a ratio with its spread, and alone when the repetitions agree exactly', () => {
    expect(withSpread(0.93, { min: 0.88, max: 0.97 })).toBe('0.93 (0.88–0.97)');
    expect(withSpread(20, { min: 20, max: 20 })).toBe('20');
    expect(withSpread(1234.5)).toBe('1,230');
  });
});

describe('a scenario compared with Deadbolt', () => {
  function compared(peerCycles: number[]): ScenarioReport {
    const scenario = report();
    recordOutcome(scenario, ours, cycles(100, 110, 120));
    recordOutcome(scenario, peer, cycles(...peerCycles));
    compareWithDeadbolt(scenario, CONTENDERS);
    return scenario;
  }

  it('keeps the median figure and every repetition of the headline, and compares repetition by repetition', () => {
    const scenario = compared([125, 115, 105]);
    const row = scenario.rows.find((candidate) => candidate.contender === peer.id);
    expect(row?.figures['cyclesPerSecond']).toBe(115);
    expect(row?.repetitions?.['cyclesPerSecond']).toEqual([125, 115, 105]);
    // 100/125, 110/115, 120/105: the spread crosses 1.
    expect(row?.deadboltAdvantage?.['cyclesPerSecond']).toMatchObject({
      median: 0.957,
      min: 0.8,
      max: 1.14,
      call: 'within noise',
    });
    keepHeadlineRepetitions(scenario);
    expect(Object.keys(row?.repetitions ?? {})).toEqual(['cyclesPerSecond']);
  });

  it('lists a peer as behind or ahead only when no repetition says otherwise, the rest as within noise', () => {
    const behind = compared([130, 140, 150]);
    const noise = compared([125, 115, 105]);
    const ahead = compared([50, 60, 70]);
    const results = (scenarios: ScenarioReport[]): BenchResults => ({
      date: '',
      machine: '',
      smoke: true,
      repetitions: 3,
      durationSeconds: 0,
      contenders: [],
      scenarios,
      targets: [],
    });

    const lines = peerTarget(results([behind, noise, ahead]));
    expect(lines[0]).toBe(
      'Deadbolt is ahead of a peer on 1 of 3 headline comparisons (Deadbolt × above 1 in all 3 repetitions).',
    );
    expect(lines[1]).toMatch(
      /^Deadbolt is behind a peer .*\n {2}- T\. Test, cycles\/s, against redlock4\/ioredis: × 0\.786 \(0\.769–0\.8\)$/,
    );
    expect(lines[2]).toMatch(
      /^Within noise .*\n {2}- T\. Test, cycles\/s, against redlock4\/ioredis: × 0\.957 \(0\.8–1\.14\)$/,
    );
    expect(lines).toHaveLength(3);
    expect(peerTarget(results([ahead]))).toEqual([
      'Every Deadbolt headline figure is ahead of every peer that offers the feature, in all 3 repetitions: reached.',
    ]);
  });

  it('derives a table per repetition from the runs it is computed from', () => {
    const handoff = (commands: number[]) => {
      const scenario = startScenario({ id: 'h', title: 'H', measures: '', floor: '', columns: [] }, CONTENDERS);
      // No fair lock here: the fair runs have no rows.
      if (commands.length === 0) return scenario;
      for (const contender of [ours, peer]) {
        recordOutcome(
          scenario,
          contender,
          commands.map((commandsPerAcquisition) => ({ commandsPerAcquisition, roundTripsPerAcquisition: 3 })),
        );
      }
      return scenario;
    };
    const derived = costByWaiters(
      { plain8: handoff([10, 20, 30]), plain128: handoff([20, 20, 60]), fair8: handoff([]), fair128: handoff([]) },
      CONTENDERS,
    );
    const row = derived.rows.find((candidate) => candidate.contender === ours.id);
    // 2, 1 and 2: the median of the ratios, not the ratio of the medians (20 / 20 = 1).
    expect(row?.figures['commands128To8']).toBe(2);
    expect(row?.repetitions?.['commandsAt128']).toEqual([20, 20, 60]);
  });
});

describe('the order of the repetitions', () => {
  it("one after the other: every contender's first run before any second, a failure taking the contender out", async () => {
    const order: string[] = [];
    const outcomes = await oneAfterTheOther([ours, peer, other], 3, (contender, repetition) => {
      order.push(`${contender.id}#${repetition}`);
      if (contender === peer && repetition === 2) return Promise.reject(new Error('broke'));
      return Promise.resolve({ repetition });
    });
    expect(order).toEqual([
      `${ours.id}#1`,
      `${peer.id}#1`,
      `${other.id}#1`,
      `${ours.id}#2`,
      `${peer.id}#2`,
      `${other.id}#2`,
      `${ours.id}#3`,
      `${other.id}#3`,
    ]);
    expect(outcomes.get(ours.id)).toEqual([{ repetition: 1 }, { repetition: 2 }, { repetition: 3 }]);
    expect(outcomes.get(peer.id)).toEqual(new Error('in repetition 2: broke'));
  });

  it("taking turns: one warm-up round, then each repetition's rounds, its figures taken at its end", async () => {
    const order: string[] = [];
    const outcomes = await takeTurns([ours, peer], { rounds: 2, repetitions: 3 }, (contender) => {
      let counted = 0;
      return Promise.resolve({
        block: (isCounted) => {
          order.push(`${contender.id}:${isCounted ? 'counted' : 'warm-up'}`);
          if (isCounted) counted++;
          return Promise.resolve();
        },
        takeFigures: () => {
          const figures = { blocks: counted };
          counted = 0;
          return figures;
        },
        close: () => Promise.resolve(),
      });
    });
    expect(order).toEqual(
      Array.from({ length: 7 }, (_, round) =>
        [ours, peer].map(({ id }) => `${id}:${round === 0 ? 'warm-up' : 'counted'}`),
      ).flat(),
    );
    expect(outcomes.get(ours.id)).toEqual([{ blocks: 2 }, { blocks: 2 }, { blocks: 2 }]);
  });
});
