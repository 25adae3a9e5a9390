import { describe, expect, it } from 'vitest';
import { ChannelEntry } from '../src/pubsub/ChannelEntry.js';

function entryWith(refs: number): ChannelEntry {
  const entry = new ChannelEntry(Promise.resolve());
  entry.refs = refs;
  return entry;
}

describe('ChannelEntry', () => {
  it('wakes exactly one sleeper per wake-one', async () => {
    const entry = entryWith(3);
    const woken: number[] = [];
    const sleeps = [0, 1, 2].map((i) => entry.sleep(5_000).then(() => woken.push(i)));
    entry.wakeOne();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(woken).toEqual([0]);
    entry.wakeAll();
    await Promise.all(sleeps);
    expect(woken).toEqual([0, 1, 2]);
  });

  it('wakes the sleepers that the permits can serve, in the order they fell asleep, passing over one that wants more', async () => {
    const entry = entryWith(4);
    const woken: string[] = [];
    const sleep = (name: string, demand: number) =>
      entry.sleep(5_000, undefined, undefined, demand).then((wake) => wake && woken.push(name));
    const sleeps = [sleep('a wants 2', 2), sleep('b wants 3', 3), sleep('c wants 1', 1), sleep('d wants 1', 1)];
    entry.wakeServable(3);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(woken).toEqual(['a wants 2', 'c wants 1']);
    entry.wakeServable(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(woken).toEqual(['a wants 2', 'c wants 1', 'd wants 1']);
    entry.wakeAll();
    await Promise.all(sleeps);
    expect(woken).toEqual(['a wants 2', 'c wants 1', 'd wants 1', 'b wants 3']);
  });

  it('keeps a wake by permits for each waiter busy trying, whatever it wants', async () => {
    const entry = entryWith(2);
    entry.wakeServable(1);
    const started = performance.now();
    await entry.sleep(5_000, undefined, undefined, 3);
    await entry.sleep(5_000, undefined, undefined, 3);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('keeps a wake that found nobody asleep for the next sleeper', async () => {
    const entry = entryWith(1);
    entry.wakeOne();
    const started = performance.now();
    await entry.sleep(5_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('keeps no more wakes than it has waiters', async () => {
    const entry = entryWith(1);
    entry.wakeOne();
    entry.wakeOne();
    await entry.sleep(5_000);
    const outcome = await Promise.race([
      entry.sleep(50).then(() => 'slept'),
      new Promise((r) => setTimeout(() => r('woken early'), 30)),
    ]);
    expect(outcome).toBe('woken early');
  });

  it('rejects with the abort reason and forgets the sleeper', async () => {
    const entry = entryWith(2);
    const controller = new AbortController();
    const sleeping = entry.sleep(5_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    const other = entry.sleep(5_000);
    entry.wakeOne();
    await other;
  });

  it('ends when its timeout passes', async () => {
    const entry = entryWith(1);
    const started = performance.now();
    await entry.sleep(30);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
