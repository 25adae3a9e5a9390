import { describe, expect, it } from 'vitest';
import type { LockClientEvents } from '../src/client/LockClientEvents.js';
import type { LockEvents } from '../src/client/LockEvents.js';
import { acquisitionReport } from '../src/lock/acquisitionReport.js';

// What one acquisition tells the client's listeners, without Redis: the events in order.

type Seen = [keyof LockClientEvents, Record<string, unknown>];

function events(listened: readonly (keyof LockClientEvents)[]): LockEvents & { seen: Seen[] } {
  const seen: Seen[] = [];
  return {
    seen,
    listening: (event) => listened.includes(event),
    emit: (event, payload) => void seen.push([event, payload as Record<string, unknown>]),
  };
}

const ALL: (keyof LockClientEvents)[] = ['acquired', 'waitStarted', 'waitEnded'];

describe('acquisitionReport', () => {
  it('is nothing at all when nobody listens to an acquisition event', () => {
    expect(acquisitionReport(events(['released', 'renewed']), 'orders', 'lock', 'w1')).toBeUndefined();
  });

  it('reports a lock taken at once as acquired only', () => {
    const sink = events(ALL);
    acquisitionReport(sink, 'orders', 'lock', 'w1')!.taken(false);
    expect(sink.seen).toEqual([
      ['acquired', { name: 'orders', kind: 'lock', owner: 'w1', waitedMs: expect.any(Number), passedLocally: false }],
    ]);
  });

  it('reports a wait once however many attempts found the lock busy, then its outcome, then the grant', () => {
    const sink = events(ALL);
    const report = acquisitionReport(sink, 'orders', 'lock', 'w1')!;
    report.busy();
    report.busy();
    report.taken(true);
    expect(sink.seen.map(([event, { outcome }]) => [event, outcome])).toEqual([
      ['waitStarted', undefined],
      ['waitEnded', 'taken'],
      ['acquired', undefined],
    ]);
  });

  it('reports a first attempt that failed as a wait that started and failed, with its error', () => {
    const sink = events(ALL);
    const error = new Error('unreachable');
    acquisitionReport(sink, 'orders', 'lock', 'w1')!.failed(error, undefined);
    expect(sink.seen).toEqual([
      ['waitStarted', { name: 'orders', kind: 'lock', owner: 'w1' }],
      [
        'waitEnded',
        { name: 'orders', kind: 'lock', owner: 'w1', waitedMs: expect.any(Number), outcome: 'failed', error },
      ],
    ]);
  });

  it("tells an abort (the signal's reason) from a failure", () => {
    const sink = events(ALL);
    const controller = new AbortController();
    controller.abort(new Error('gave up'));
    const report = acquisitionReport(sink, 'orders', 'lock', 'w1')!;
    report.busy();
    report.failed(controller.signal.reason, controller.signal);
    expect(sink.seen.at(-1)?.[1]).toMatchObject({ outcome: 'aborted' });
  });
});
