// The semaphore checks' own tests (issue 18), on inputs made to trip them: the hold-interval
// history's limit check, the end count's accounting, the grants rebuilt from a worker's events,
// and the model's step and history judges. A check that cannot fail proves nothing.
import { describe, expect, it } from 'vitest';
import { ExpirableModel } from '../src/semaphore/model/ExpirableModel.js';
import { judgeExpirableStep, storedMember } from '../src/semaphore/model/judgeExpirableStep.js';
import { judgeSemaphoreHistory, judgeSemaphoreStep } from '../src/semaphore/model/judgeSemaphoreStep.js';
import { SemaphoreModel } from '../src/semaphore/model/SemaphoreModel.js';
import { accountPermits } from '../src/semaphore/permitAccounting.js';
import type { PermitEvent } from '../src/semaphore/permitEvents.js';
import { attemptsOf, grantsOf } from '../src/semaphore/permitGrants.js';
import { findPermitExcesses, type PermitInterval } from '../src/semaphore/permitHistory.js';
import { reviewLeases, TOLD_SLACK_MS } from '../src/semaphore/permitLeases.js';

const grant = (id: string, permits: number, start: number, end: number): PermitInterval => ({
  id,
  permits,
  start,
  end,
});
const LIMIT_3 = [{ at: -Infinity, limit: 3 }];

describe('findPermitExcesses', () => {
  it('reports a grant that takes the permits held at once beyond N, and only that one', () => {
    const excesses = findPermitExcesses(
      [grant('a', 2, 0, 10), grant('b', 1, 5, 20), grant('c', 1, 8, 12), grant('d', 1, 15, 30)],
      LIMIT_3,
    );
    expect(excesses.map(({ grant: { id }, held, limit }) => [id, held, limit])).toEqual([['c', 4, 3]]);
  });

  it('finds none where the holds only touch, or stay within N', () => {
    expect(
      findPermitExcesses(
        [grant('a', 3, 0, 10), grant('b', 3, 10, 20), grant('c', 2, 20, 30), grant('d', 1, 25, 35)],
        LIMIT_3,
      ),
    ).toEqual([]);
  });

  it('counts permits never given back (end Infinity) against every later grant', () => {
    const excesses = findPermitExcesses(
      [grant('kept', 2, 0, Infinity), grant('b', 1, 50, 60), grant('c', 1, 100, 110), grant('d', 1, 105, 120)],
      LIMIT_3,
    );
    expect(excesses.map(({ grant: { id } }) => id)).toEqual(['d']);
  });

  it('judges each grant by the limit in effect then; a lowered limit alone, or a grant of 0, is no excess', () => {
    const limits = [
      { at: 0, limit: 2 },
      { at: 20, limit: 4 },
      { at: 40, limit: 1 },
    ];
    const grants = [
      grant('a', 2, 1, 100),
      grant('b', 1, 5, 6),
      grant('c', 2, 21, 30),
      grant('d', 0, 45, 50),
      grant('e', 1, 41, 42),
    ];
    expect(findPermitExcesses(grants, limits).map(({ grant: { id }, held, limit }) => [id, held, limit])).toEqual([
      ['b', 3, 2],
      ['e', 3, 1],
    ]);
  });
});

describe('accountPermits', () => {
  it('accounts a leak exactly what killed holders kept, and refuses one more or one less', () => {
    const kept = [{ id: 'k', permits: 2, certain: true }];
    expect(accountPermits(4, 2, kept)).toMatchObject({ leaked: 2, certain: 2, accounted: true });
    expect(accountPermits(4, 1, kept).accounted).toBe(false);
    expect(accountPermits(4, 3, kept).accounted).toBe(false);
    // A release counted twice: more permits than the semaphore was given.
    expect(accountPermits(4, 5, []).accounted).toBe(false);
  });

  it('lets each request of unknown outcome count its permits or none, never a part', () => {
    const leaks = [
      { id: 'k', permits: 1, certain: true },
      { id: 'u1', permits: 2, certain: false },
      { id: 'u2', permits: 2, certain: false },
    ];
    expect([5, 3, 1].map((available) => accountPermits(6, available, leaks).accounted)).toEqual([true, true, true]);
    expect([6, 4, 2, 0].map((available) => accountPermits(6, available, leaks).accounted)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('grantsOf', () => {
  const events: PermitEvent[] = [
    { event: 'asking', hold: '1.0.0', at: 5, permits: 2 },
    { event: 'acquired', hold: '1.0.0', at: 10 },
    { event: 'releasing', hold: '1.0.0', at: 20 },
    { event: 'released', hold: '1.0.0', unknown: false },
    { event: 'asking', hold: '1.0.1', at: 25, permits: 1 },
    { event: 'acquired', hold: '1.0.1', at: 30 },
    { event: 'asking', hold: '1.1.0', at: 40, permits: 2 },
    { event: 'asking', hold: '1.2.0', at: 45, permits: 1 },
    { event: 'missed', hold: '1.2.0', error: 'RedisUnavailableError', unknown: true },
  ];

  it('rebuilds a killed worker’s grants: held ones until given back for it, requests in flight or failed unknown', () => {
    const grants = grantsOf(events, { at: 99 });
    expect(grants.grants).toEqual([grant('1.0.0', 2, 10, 20), grant('1.0.1', 1, 30, 99)]);
    expect(grants.leaks).toEqual([
      { id: '1.0.1', permits: 1, certain: true },
      { id: '1.1.0', permits: 2, certain: false },
      { id: '1.2.0', permits: 1, certain: false },
    ]);
    expect([grants.completed, grants.unknown]).toEqual([1, 2]);
  });

  it('refuses a live worker that never gave back a grant', () => {
    expect(() => grantsOf(events.slice(0, 6))).toThrow('never given back');
  });
});

describe('leased grants (PermitExpirableSemaphore)', () => {
  const ms = (millis: number) => millis * 1_000;
  // A watchdog grant given back; a 60 ms grant given back in time; one held past its lease and
  // told at its end; one held past it and never told; one given back after its lease, its release
  // giving permits back all the same; one killed holding a watchdog grant, one killed holding a 60 ms grant.
  const events: PermitEvent[] = [
    { event: 'asking', hold: 'w', at: ms(0), permits: 1 },
    { event: 'acquired', hold: 'w', at: ms(1) },
    { event: 'releasing', hold: 'w', at: ms(5) },
    { event: 'released', hold: 'w', unknown: false, lapsed: false },
    { event: 'asking', hold: 'fixed', at: ms(10), permits: 1, leaseMs: 60 },
    { event: 'acquired', hold: 'fixed', at: ms(11) },
    { event: 'releasing', hold: 'fixed', at: ms(20) },
    { event: 'released', hold: 'fixed', unknown: false, lapsed: false },
    { event: 'asking', hold: 'told', at: ms(100), permits: 2, leaseMs: 60 },
    { event: 'acquired', hold: 'told', at: ms(102) },
    { event: 'told', hold: 'told', at: ms(161), reason: 'LockLostError' },
    { event: 'releasing', hold: 'told', at: ms(181) },
    { event: 'released', hold: 'told', unknown: false, lapsed: true },
    { event: 'asking', hold: 'untold', at: ms(200), permits: 1, leaseMs: 60 },
    { event: 'acquired', hold: 'untold', at: ms(201) },
    { event: 'releasing', hold: 'untold', at: ms(201 + 60 + TOLD_SLACK_MS + 1) },
    { event: 'released', hold: 'untold', unknown: false, lapsed: true },
    { event: 'asking', hold: 'twice', at: ms(1_000), permits: 1, leaseMs: 60 },
    { event: 'acquired', hold: 'twice', at: ms(1_001) },
    { event: 'told', hold: 'twice', at: ms(1_060), reason: 'LockLostError' },
    { event: 'releasing', hold: 'twice', at: ms(1_080) },
    { event: 'released', hold: 'twice', unknown: false, lapsed: false },
  ];

  it('end no later than their lease counted from the request, and leak nothing', () => {
    const grants = grantsOf(events, undefined, { watchdogMs: 1_000 });
    expect(grants.grants.map(({ id, end }) => [id, end])).toEqual([
      ['w', ms(5)],
      ['fixed', ms(20)],
      ['told', ms(160)],
      ['untold', ms(260)],
      ['twice', ms(1_060)],
    ]);
    expect([grants.leaks, grants.completed]).toEqual([[], 5]);
  });

  it('of a killed worker: held at least until the kill, or the first watchdog lease; a fixed lease ends them', () => {
    const killed = [
      { event: 'asking', hold: 'k.w', at: ms(0), permits: 1 },
      { event: 'acquired', hold: 'k.w', at: ms(2) },
      { event: 'asking', hold: 'k.f', at: ms(0), permits: 1, leaseMs: 60 },
      { event: 'acquired', hold: 'k.f', at: ms(3) },
    ] as const satisfies PermitEvent[];
    expect(grantsOf(killed, { at: ms(300) }, { watchdogMs: 1_000 }).grants.map(({ end }) => end)).toEqual([
      ms(1_000),
      ms(60),
    ]);
    expect(grantsOf(killed, { at: ms(3_000) }, { watchdogMs: 1_000 }).grants.map(({ end }) => end)).toEqual([
      ms(3_000),
      ms(60),
    ]);
    // Killed 5 s after its 60 ms lease ended, never told.
    expect(reviewLeases(attemptsOf(killed), ms(5_000)).breaches).toEqual([
      expect.stringContaining('k.f: its 60 ms lease ended by 63000 µs, but it was never told'),
    ]);
  });

  it('flag a holder never told its lease ended, and a release after the lease that gave permits back', () => {
    const review = reviewLeases(attemptsOf(events));
    expect(review.outlived).toBe(3);
    expect(review.breaches).toEqual([
      expect.stringContaining('untold: its 60 ms lease ended by 261000 µs, but it was never told'),
      expect.stringContaining('twice: its release, sent after its 60 ms lease ended, gave its permits back again'),
    ]);
  });

  it('flag a watchdog grant that lost its permits without being told, and not one that was told', () => {
    const lost = (told: boolean): PermitEvent[] => [
      { event: 'asking', hold: 'w', at: ms(0), permits: 1 },
      { event: 'acquired', hold: 'w', at: ms(1) },
      ...(told ? [{ event: 'told', hold: 'w', at: ms(900), reason: 'LockLostError' } as const] : []),
      { event: 'releasing', hold: 'w', at: ms(2_000) },
      { event: 'released', hold: 'w', unknown: false, lapsed: true },
    ];
    expect(reviewLeases(attemptsOf(lost(false)))).toEqual({
      outlived: 0,
      watchdogLapses: 1,
      breaches: [expect.stringContaining('w: lost its permits under the watchdog')],
    });
    expect(reviewLeases(attemptsOf(lost(true)))).toEqual({ outlived: 0, watchdogLapses: 1, breaches: [] });
  });
});

describe('the semaphore model’s judges', () => {
  it('flag a grant the model refuses, a count that does not add up, and a history beyond the limit', () => {
    const model = new SemaphoreModel();
    model.apply({ op: 'trySetPermits', client: 0, permits: 2 }, 0);
    expect(model.apply({ op: 'tryAcquire', client: 0, permits: 2 }, 1)).toBe('held:2');
    // The real semaphore granted a third permit of 2.
    const expected = model.apply({ op: 'tryAcquire', client: 1, permits: 1 }, 2);
    expect(expected).toBe('null');
    const found = judgeSemaphoreStep(
      { outcome: expected, exists: model.exists, available: model.available, limit: model.limit, held: model.held },
      { outcome: 'held:1', stored: '-1', marked: 3 },
    );
    expect(found.map((line) => line.slice(0, line.indexOf(']') + 1))).toEqual([
      '[outcome]',
      '[state]',
      '[count]',
      '[marks]',
    ]);
    const history = [grant('#0', 2, 1, Infinity), grant('#1', 1, 2, Infinity)];
    expect(judgeSemaphoreHistory(history, model.limits)).toEqual([
      '[excess] grant #1 of 1 at step 2: 3 permits held, limit 2',
    ]);
  });

  it('find nothing when the real semaphore did what the model did', () => {
    const model = new SemaphoreModel();
    model.apply({ op: 'addPermits', client: 0, permits: 3 }, 0);
    const outcome = model.apply({ op: 'acquire', client: 0, permits: 2 }, 1);
    const state = { exists: model.exists, available: model.available, limit: model.limit, held: model.held };
    expect(judgeSemaphoreStep({ outcome, ...state }, { outcome: 'held:2', stored: '1', marked: 2 })).toEqual([]);
    expect(judgeSemaphoreHistory([grant('#0', 2, 1, Infinity)], model.limits)).toEqual([]);
  });
});

describe('the semaphore model after a step of unknown outcome', () => {
  it('keeps a clone apart, and takes on the one Redis shows: an acquisition that ran and was never given back stays marked, by nobody', () => {
    const model = new SemaphoreModel();
    model.apply({ op: 'trySetPermits', client: 0, permits: 3 }, 0);
    const orphaned = model.clone();
    orphaned.orphan(2);
    expect({ model: model.available, clone: orphaned.available }).toEqual({ model: 3, clone: 1 });
    model.adopt(orphaned);
    const state = {
      exists: model.exists,
      available: model.available,
      limit: model.limit,
      held: model.held + model.orphaned,
    };
    expect(judgeSemaphoreStep({ outcome: 'done', ...state }, { outcome: 'done', stored: '1', marked: 2 })).toEqual([]);
    // A copy that took them again: Redis marks 4 and shows none free.
    expect(
      judgeSemaphoreStep({ outcome: 'done', ...state }, { outcome: 'done', stored: '-1', marked: 4 }).map((line) =>
        line.slice(0, line.indexOf(']') + 1),
      ),
    ).toEqual(['[state]', '[count]', '[marks]']);
  });
});

describe('the PermitExpirableSemaphore model', () => {
  it('ends the grant of an acquisition of unknown outcome when its late give-back lands', () => {
    const model = new ExpirableModel();
    model.apply({ op: 'trySetPermits', client: 0, permits: 4 }, 0);
    model.orphan(['a', 'b'], false, 1);
    model.giveBack(['a', 'b'], 5);
    expect(model.grants.map(({ start, end }) => [start, end])).toEqual([
      [1, 5],
      [1, 5],
    ]);
    expect(model.apply({ op: 'tryAcquire', client: 1, permits: 4, lease: 'long' }, 6)).toBe('held:4');
  });

  it('frees a permit once when a release of unknown outcome lands late, and ends its grant then', () => {
    const model = new ExpirableModel();
    model.apply({ op: 'trySetPermits', client: 0, permits: 2 }, 0);
    expect(model.apply({ op: 'tryAcquire', client: 0, permits: 1, lease: 'long' }, 1)).toBe('held:1');
    model.releaseLate(0, 4);
    model.releaseLate(0, 6);
    expect(model.available).toBe(2);
    expect(model.grants.map(({ start, end }) => [start, end])).toEqual([[1, 4]]);
  });

  const ids = ['00112233445566778899aabbccddeeff', 'ff00ff00ff00ff00ff00ff00ff00ff00'];
  const expectedOf = (model: ExpirableModel, outcome: string) => ({
    outcome,
    exists: model.exists,
    available: model.available,
    limit: model.limit,
    members: model.permits.flatMap((permit, index) =>
      permit.state === 'gone' ? [] : [{ member: storedMember(ids[index] ?? ''), expired: permit.state === 'expired' }],
    ),
    told: model.holdings.map((holding) => holding.told),
  });

  it('expires short leases at a pass, tells their holder, and reclaims them at the next reclaiming call only', () => {
    const model = new ExpirableModel();
    model.apply({ op: 'trySetPermits', client: 0, permits: 2 }, 0);
    expect(model.apply({ op: 'tryAcquire', client: 0, permits: 1, lease: 'short' }, 1)).toBe('held:1');
    expect(model.apply({ op: 'tryAcquire', client: 1, permits: 1, lease: 'watchdog' }, 2)).toBe('held:1');
    expect(model.apply({ op: 'tryAcquire', client: 1, permits: 1, lease: 'long' }, 3)).toBe('null');
    model.apply({ op: 'pass' }, 4);
    expect([model.available, model.stored, model.holdings.map((holding) => holding.told)]).toEqual([
      0,
      2,
      [true, false],
    ]);
    // addPermits does not reclaim; availablePermits does.
    model.apply({ op: 'addPermits', client: 0, permits: 0 }, 5);
    expect(model.available).toBe(0);
    expect(model.apply({ op: 'availablePermits', client: 0 }, 6)).toBe('value:1');
    // The expired acquisition's release gives nothing back and rejects with the loss; a re-release by id says false.
    expect(model.apply({ op: 'releaseHeld', pick: 0 }, 7)).toBe('error:LockLostError');
    expect(model.apply({ op: 'releaseId', client: 0, pick: 1 }, 8)).toBe('true');
    expect(model.apply({ op: 'releaseId', client: 1, pick: 1 }, 9)).toBe('false');
    expect(model.grants.map(({ start, end }) => [start, end])).toEqual([
      [1, 4],
      [2, 8],
    ]);
  });

  it('flags every kind of divergence from it, and none when Redis matches', () => {
    const model = new ExpirableModel();
    model.apply({ op: 'trySetPermits', client: 0, permits: 2 }, 0);
    const outcome = model.apply({ op: 'tryAcquire', client: 0, permits: 2, lease: 'short' }, 1);
    const expected = expectedOf(model, outcome);
    const held = ids.map((id) => ({ member: storedMember(id), score: 2_000 }));
    const matching = { outcome: 'held:2', stored: '0', members: held, readFrom: 1_000, readTo: 1_001, told: [false] };
    expect(judgeExpirableStep(expected, matching)).toEqual([]);
    const broken = {
      outcome: 'null',
      stored: '2',
      members: [{ member: storedMember(ids[0] ?? ''), score: 500 }],
      readFrom: 1_000,
      readTo: 1_001,
      told: [true],
    };
    expect(judgeExpirableStep(expected, broken).map((line) => line.slice(0, line.indexOf(']') + 1))).toEqual([
      '[outcome]',
      '[state]',
      '[members]',
      '[lease]',
      '[count]',
      '[told]',
    ]);
  });
});
