// One call at a time: what a held lock's release() relies on so that a second call finds the
// first one's outcome instead of racing it.
import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../src/lock/OneAtATime.js';

describe('OneAtATime', () => {
  it('starts a call only once the one in flight settled, whichever way it settled', async () => {
    const calls = new OneAtATime();
    const order: string[] = [];
    let fail: (error: Error) => void = () => undefined;
    const first = calls.run(
      () =>
        new Promise<string>((_, reject) => {
          order.push('first started');
          fail = reject;
        }),
    );
    const second = calls.run(() => {
      order.push('second started');
      return Promise.resolve('second');
    });
    await Promise.resolve();
    expect(order).toEqual(['first started']);
    fail(new Error('first failed'));
    await expect(first).rejects.toThrow('first failed');
    await expect(second).resolves.toBe('second');
    expect(order).toEqual(['first started', 'second started']);
  });

  it('a call that throws at once holds nobody up', async () => {
    const calls = new OneAtATime();
    await expect(
      calls.run(() => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(calls.run(() => Promise.resolve(1))).resolves.toBe(1);
  });
});
