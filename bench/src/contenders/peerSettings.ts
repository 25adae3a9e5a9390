import { readFileSync } from 'node:fs';

/**
 * How the peers are configured where they must be told: the same for all of them, stated in the
 * report. Polling peers retry every 10 ms (redis-semaphore's default; the redlock ports default to
 * 200 ms ± 100 ms and redlock-universal to 100 ms, which only make their waits longer), without a
 * limit, as Deadbolt's `acquire()` waits; a lock that needs a TTL gets Deadbolt's default lease.
 */
export const PEER_SETTINGS = {
  retryDelay: 10,
  retryJitter: 5,
  /** A retry count that never runs out, for libraries that take no "unlimited". */
  retryAttempts: 1_000_000_000,
  ttl: 30_000,
} as const;

/** `retry every 10 ms ± 5 ms, no limit; TTL 30 s` and the like, for the report. */
export const POLLING = `retries every ${PEER_SETTINGS.retryDelay} ms without limit; lock TTL ${PEER_SETTINGS.ttl / 1000} s`;

const pinned = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  }
).dependencies;

/** `name@version` as the benchmark pins it. */
export function pinnedLibrary(name: string): string {
  return `${name}@${pinned[name] ?? '?'}`;
}
