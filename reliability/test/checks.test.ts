// The suite's own checks, on inputs made to trip them: the overlap finder, the fenced store, the
// hammer's excuse for holds lost during a long partition, the latch model and its judge, the
// figures' arithmetic, and how chaos runs merge into the published results. A check that cannot
// fail proves nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStandalone, type RedisNode } from '@deadbolt/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAOS_RECORDS_DIR, type ChaosRecord } from '../src/chaos/chaosRecord.js';
import { publishChaos, readChaosResults } from '../src/chaos/chaosReport.js';
import { lateDeliveryDelay, longPartitionMs } from '../src/faults/lateCopies.js';
import { findOverlaps, type HoldInterval } from '../src/hammer/overlaps.js';
import type { HammerHold } from '../src/hammer/runHammer.js';
import { cutOffDuring } from '../src/hammer/verifyHammer.js';
import { judgeLatchStep } from '../src/latch/judgeLatchStep.js';
import { LatchModel } from '../src/latch/LatchModel.js';
import { summarise } from '../src/results/report.js';
import { resourceKeys, ResourceStore } from '../src/store/ResourceStore.js';

const hold = (owner: string, start: number, end: number, extra: Partial<HoldInterval> = {}): HoldInterval => ({
  lock: 'l',
  owner,
  pid: Number(owner.split('.')[0]),
  exclusive: true,
  start,
  end,
  ...extra,
});

describe('findOverlaps', () => {
  const LEASE = 1_000;

  it('finds intersecting holds of distinct owners when one is exclusive, and nothing else', () => {
    const overlaps = findOverlaps(
      [
        hold('1.a', 0, 10),
        hold('2.a', 5, 15),
        hold('2.a', 20, 30), // same owner as the one before: never an overlap with it
        hold('3.a', 30, 40), // touches the end of the one before
        hold('4.r', 50, 60, { exclusive: false }),
        hold('5.r', 55, 65, { exclusive: false }), // two readers share
        hold('6.w', 64, 70),
        hold('7.a', 5, 15, { lock: 'other' }),
      ],
      [],
      LEASE,
    );
    expect(overlaps.map(({ earlier, later, excused }) => [earlier.owner, later.owner, excused])).toEqual([
      ['1.a', '2.a', false],
      ['5.r', '6.w', false],
    ]);
  });

  it('excuses an overlap only where one holder was frozen for a lease after its grant could have come, before the other began', () => {
    const pauses = [{ pid: 1, from: 100, to: 1_200 }];
    const frozenHolder = hold('1.a', 90, 1_300);
    const overlapsWith = (later: HoldInterval, earlier = frozenHolder) => findOverlaps([earlier, later], pauses, LEASE);
    expect(overlapsWith(hold('2.a', 1_150, 1_250))[0]?.excused).toBe(true);
    // Started before the freeze began: the earlier lease was still good.
    expect(overlapsWith(hold('2.a', 95, 1_250))[0]?.excused).toBe(false);
    // Frozen for less than a lease within the hold.
    expect(overlapsWith(hold('2.a', 1_150, 1_250), hold('1.a', 300, 1_300))[0]?.excused).toBe(false);
    // Granted on a request sent before the freeze, recorded after it: the grant may have expired.
    expect(overlapsWith(hold('2.a', 1_210, 1_250), hold('1.a', 1_205, 1_300, { requested: 50 }))[0]?.excused).toBe(
      true,
    );
    // The stale one may be the later by recorded start: granted before the freeze, known after it.
    expect(
      findOverlaps([hold('2.a', 1_150, 1_250), hold('1.a', 1_210, 1_300, { requested: 50 })], pauses, LEASE)[0]
        ?.excused,
    ).toBe(true);
    // Another process's freeze explains nothing.
    expect(findOverlaps([hold('3.a', 90, 1_300), hold('2.a', 1_150, 1_250)], pauses, LEASE)[0]?.excused).toBe(false);
  });
});

describe('ResourceStore', () => {
  let server: RedisNode;
  let store: ResourceStore;
  beforeAll(async () => {
    server = await startStandalone();
    store = await ResourceStore.connect(server);
  });
  afterAll(async () => {
    store.close();
    await server.stop();
  });

  it('fenced: refuses a token lower than the highest it has seen, for reads and writes, and changes nothing then', async () => {
    const keys = resourceKeys('fenced');
    expect(await store.write(keys, 1, 'h5', 5n)).toBe(true);
    expect(await store.read(keys, 3n)).toEqual({ accepted: false });
    expect(await store.write(keys, 9, 'h4', 4n)).toBe(false);
    expect(await store.read(keys, 5n)).toEqual({ accepted: true, value: 1 });
    expect(await store.write(keys, 2, 'h6', 6n)).toBe(true);
    expect(await store.write(keys, 9, 'h5-late', 5n)).toBe(false);
    expect(await server.command('SMEMBERS', keys.writes)).toEqual(expect.arrayContaining(['h5', 'h6']));
    expect(await server.command('SCARD', keys.writes)).toBe(2);
    expect(await store.read(keys)).toEqual({ accepted: true, value: 2 });
  });

  it('plain: reads and writes whatever the order, recording each write', async () => {
    const keys = resourceKeys('plain');
    expect(await store.read(keys)).toEqual({ accepted: true, value: 0 });
    expect(await store.write(keys, 7, 'a')).toBe(true);
    expect(await store.write(keys, 3, 'b')).toBe(true);
    expect(await store.read(keys)).toEqual({ accepted: true, value: 3 });
    expect(await server.command('SCARD', keys.writes)).toBe(2);
  });
});

describe('summarise', () => {
  it('adds every test’s figures up, faults by type, in total, by scope and by file', () => {
    const none = {
      overlaps: 0,
      excusedOverlaps: 0,
      lostUpdates: 0,
      staleWritesRejected: 0,
      badInputs: 0,
      modelSteps: 0,
      redissonPeerHolds: 0,
      redissonPeerRenewals: 0,
    };
    const results = summarise([
      { ...none, file: 'a', scope: 'x', faults: { 'subscriber CLIENT KILL': 2 }, operations: 10, overlaps: 1 },
      {
        ...none,
        file: 'b',
        scope: 'x',
        faults: { 'subscriber CLIENT KILL': 1, 'publish lost': 4 },
        operations: 5,
        badInputs: 3,
      },
      { ...none, file: 'b', scope: 'y', faults: {}, operations: 1 },
      { ...none, file: 'model-locks', scope: 'y', faults: {}, operations: 0, modelSteps: 40 },
    ]);
    expect(results.totals).toMatchObject({
      faultsInjected: 7,
      operations: 16,
      overlaps: 1,
      badInputs: 3,
      modelSteps: 40,
    });
    expect(results.totals.faults).toEqual({ 'subscriber CLIENT KILL': 3, 'publish lost': 4 });
    expect(results.byScope['x']).toMatchObject({ operations: 15 });
    expect(results.byFile['b']).toMatchObject({ operations: 6, badInputs: 3 });
  });
});

describe('late copies', () => {
  it('are delivered past the deadline and its estimate’s error, and partitions outlast every record (3 × commandTimeout)', () => {
    expect(lateDeliveryDelay(500)).toBeGreaterThan(2 * 500);
    expect(longPartitionMs(500)).toBeGreaterThan(3 * 500);
  });

  it('excuse a hold lost during a long partition only when it was told, and only near the partition', () => {
    const lost: HammerHold = {
      ...hold('1.0', 1_000, 2_000),
      id: '1.0.0',
      subject: 'Lock',
      outcome: 'released',
      wrote: true,
      rejected: false,
      lost: true,
    };
    const cutOff = { from: 1_500, to: 3_000 };
    expect(cutOffDuring(lost, [cutOff], 1_000)).toBe(true);
    expect(cutOffDuring({ ...lost, lost: false }, [cutOff], 1_000)).toBe(false);
    expect(cutOffDuring({ ...lost, start: 5_000, end: 5_100 }, [cutOff], 1_000)).toBe(false);
    expect(cutOffDuring(lost, [], 1_000)).toBe(false);
  });
});

describe('the latch model and its judge', () => {
  const judge = (
    model: LatchModel,
    outcome: string,
    observed: { outcome: string; stored: string | null; opened?: number[]; answeredLate?: string[] },
    openSince = () => false,
  ) => judgeLatchStep({ outcome, stored: model.stored, openSince }, { opened: [], answeredLate: [], ...observed });

  it('counts down to zero, opens there, and counts a count-down of a latch with no count as nothing', () => {
    const model = new LatchModel();
    expect(model.apply({ op: 'countDown', client: 0 })).toBe('done');
    expect({ stored: model.stored, open: model.open }).toEqual({ stored: null, open: true });
    expect(model.apply({ op: 'trySetCount', client: 0, count: 2 })).toBe('true');
    expect(model.apply({ op: 'trySetCount', client: 1, count: 3 })).toBe('false');
    expect(model.apply({ op: 'await', client: 1 })).toBe('false');
    model.apply({ op: 'countDown', client: 1 });
    expect({ stored: model.stored, open: model.open }).toEqual({ stored: '1', open: false });
    model.apply({ op: 'countDown', client: 0 });
    expect({ stored: model.stored, open: model.open, read: model.apply({ op: 'getCount', client: 0 }) }).toEqual({
      stored: null,
      open: true,
      read: 'value:0',
    });
  });

  it('flags a count-down counted twice as a latch opened early, and a wait that saw it open too soon', () => {
    const model = new LatchModel();
    model.apply({ op: 'trySetCount', client: 0, count: 2 });
    const expected = model.apply({ op: 'countDown', client: 1 });
    // A late copy of the count-down counted again: Redis opened the latch at 1 of 2.
    const found = judge(model, expected, { outcome: 'done', stored: null, opened: [3] });
    expect(found.found.map((line) => line.slice(0, line.indexOf(']') + 1))).toEqual(['[state]', '[early]', '[early]']);
    expect(found.openedEarly).toBe(2);
    expect(judge(model, 'false', { outcome: 'true', stored: '1' }).openedEarly).toBe(1);
    expect(judge(model, expected, { outcome: 'done', stored: '1', answeredLate: [':1'] }).found).toEqual([
      '[late] a copy delivered past its deadline was answered :1, not refused',
    ]);
    expect(judge(model, expected, { outcome: 'done', stored: '1', opened: [0] }, () => true)).toEqual({
      found: [],
      openedEarly: 0,
    });
  });
});

describe('publishChaos', () => {
  it('replaces the rows of the scenarios and adapters that ran, and keeps the others', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-chaos-publish-'));
    try {
      const [testDir, resultsDir, runDir] = ['test', 'results', 'run'].map((name) => path.join(root, name));
      for (const dir of [testDir, resultsDir, path.join(runDir!, CHAOS_RECORDS_DIR)])
        fs.mkdirSync(dir!, { recursive: true });
      fs.writeFileSync(path.join(testDir!, 'chaos-a.test.ts'), '');
      const run = (adapter: string, operations: number, scenario = 'a') =>
        ({ file: 'chaos-a', scenario, adapter, locks: ['Lock'], operations }) as unknown as ChaosRecord;
      fs.writeFileSync(
        path.join(resultsDir!, 'chaos.json'),
        JSON.stringify({
          date: '',
          machine: '',
          held: 0,
          runs: [run('ioredis', 1), run('ioredis', 4, 'b'), run('node-redis', 2)],
        }),
      );
      fs.writeFileSync(path.join(runDir!, CHAOS_RECORDS_DIR, 'fresh.json'), JSON.stringify(run('ioredis', 3)));
      expect(publishChaos(runDir!, testDir!, resultsDir!)).toBe(true);
      const runs = readChaosResults(resultsDir!)?.runs.map(({ adapter, operations }) => [adapter, operations]);
      expect(runs).toEqual([
        ['ioredis', 3],
        ['node-redis', 2],
        ['ioredis', 4],
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
