import { describe, expect, it } from 'vitest';
import { pickFreePort, portRange, workerPortRange } from '../src/server/ports.js';

describe('ports', () => {
  const range = [20_000, 22_767] as const;

  it('vitest workers running at once pick from slices that do not overlap', () => {
    const slices = ['1', '2', '3', '4'].map((id) => workerPortRange(range, id));
    expect(slices).toEqual([
      [20_000, 20_691],
      [20_692, 21_383],
      [21_384, 22_075],
      [22_076, 22_767],
    ]);
    // A fifth worker shares the first one's slice rather than leaving the range.
    expect(workerPortRange(range, '5')).toEqual(slices[0]);
  });

  it('outside vitest, or with a pool id that is not one, the whole range', () => {
    for (const id of [undefined, '', '0', 'x', '1.5']) expect(workerPortRange(range, id)).toEqual([20_000, 22_767]);
  });

  it("this worker's ports come from its slice", async () => {
    const [low, high] = workerPortRange(portRange(), process.env['VITEST_POOL_ID']);
    expect(process.env['VITEST_POOL_ID']).toMatch(/^[1-9]\d*$/);
    const port = await pickFreePort();
    expect(port).toBeGreaterThanOrEqual(low);
    expect(port).toBeLessThanOrEqual(high);
  });
});
