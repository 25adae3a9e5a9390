import type { Executor } from '@deadbolt/core';
import { percentile } from '../stats.js';

const TRIVIAL = 'return 1';

/**
 * The floor every figure is compared with: the latency of one EVALSHA round trip of a trivial
 * script on the same client, measured in the same run.
 */
export async function scriptRoundTrip(executor: Executor, samples: number): Promise<{ p50: number; p99: number; perSecond: number }> {
  const sha = await loadTrivial(executor);
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < samples; i++) {
    const sent = performance.now();
    await executor.evalsha(sha, [], []);
    times.push(performance.now() - sent);
  }
  const elapsed = performance.now() - started;
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: (samples / elapsed) * 1000 };
}

async function loadTrivial(executor: Executor): Promise<string> {
  const { createHash } = await import('node:crypto');
  await executor.eval(TRIVIAL, [], []);
  return createHash('sha1').update(TRIVIAL).digest('hex');
}
