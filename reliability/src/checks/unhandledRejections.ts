import { afterEach, beforeEach, expect } from 'vitest';

/**
 * Fails each test of the enclosing block in which a promise was rejected with nobody handling it:
 * a fault must never surface as an unhandled rejection.
 */
export function useNoUnhandledRejections(): void {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => void seen.push(reason);
  beforeEach(() => {
    seen.length = 0;
    process.on('unhandledRejection', listener);
  });
  afterEach(() => {
    process.off('unhandledRejection', listener);
    expect(seen.map(String), 'unhandled rejections').toEqual([]);
  });
}
