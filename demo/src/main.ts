// `pnpm demo [section]`: a short tour of every Deadbolt lock kind and synchronizer, one section
// each, on a throwaway redis-server (or REDIS_URL; the RedLock section always starts three servers
// of its own). Each
// section prints what happens and ends with a verdict computed from what it observed; the end
// prints all verdicts, and the exit code is non-zero when any section failed.
// `pnpm demo fenced` runs one section; an unknown name prints the list and exits with code 2.
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { LockClient } from '@deadbolt/core';
import { useStandalone, type StandaloneTarget } from '@deadbolt/test-harness';
import { Redis } from 'ioredis';
import { fairSection } from './fair.js';
import { fencedSection } from './fenced.js';
import { latchSection } from './latch.js';
import { lockSection } from './lock.js';
import { multilockSection } from './multilock.js';
import { redlockSection } from './redlock.js';
import { rwlockSection } from './rwlock.js';
import { semaphoreSection } from './semaphore.js';
import { verdictLine, type Section, type Shared, type Verdict } from './section.js';

/** The tour, in order: from the plain lock to the kinds built on it, then the other synchronizers. */
const SECTIONS: readonly Section[] = [
  lockSection,
  fairSection,
  rwlockSection,
  fencedSection,
  multilockSection,
  redlockSection,
  semaphoreSection,
  latchSection,
];

const [wanted, ...extra] = process.argv.slice(2);
const selected = wanted === undefined ? SECTIONS : SECTIONS.filter((section) => section.name === wanted);
if (selected.length === 0 || extra.length > 0) {
  console.error(wanted && selected.length === 0 ? `Unknown section "${wanted}".` : 'At most one section name.');
  console.error('Usage: pnpm demo [section]   (no section: the whole tour)\n\nSections:');
  for (const section of SECTIONS) console.error(`  ${section.name.padEnd(10)} ${section.kind}: ${section.about}`);
  process.exit(2);
}

// The shared server, started by the first section that asks for it and stopped at the end.
let server: StandaloneTarget | undefined;
let shared: Promise<Shared> | undefined;
const open = async (): Promise<Shared> => {
  server = await useStandalone();
  console.log(
    server.node
      ? `(started redis-server on port ${server.port}, pid ${server.node.pid})`
      : `(using REDIS_URL ${server.url})`,
  );
  const redis = new Redis(server.url);
  const executor = ioredisExecutor(redis);
  return { url: server.url, redis, executor, locks: new LockClient(executor) };
};
const context = { shared: () => (shared ??= open()) };

const verdicts: Verdict[] = [];
try {
  for (const [index, section] of selected.entries()) {
    console.log(`\n== ${index + 1}/${selected.length} ${section.kind} ==`);
    // A section that throws is a failed verdict, and the tour goes on with the next one.
    const verdict = await section.run(context).catch((error: unknown): Verdict => ({
      kind: section.kind,
      ok: false,
      text: `failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
    verdicts.push(verdict);
    console.log(verdictLine(verdict));
  }
} finally {
  // A server that failed to start already failed the section that asked for it.
  const opened = await shared?.catch(() => undefined);
  await opened?.locks.close();
  opened?.redis.disconnect();
  await server?.stop();
}

if (selected.length > 1) {
  console.log('\n== Verdicts ==');
  for (const verdict of verdicts) console.log(verdictLine(verdict));
}
process.exitCode = verdicts.every((verdict) => verdict.ok) ? 0 : 1;
