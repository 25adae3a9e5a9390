// A holder worker: takes every lock of its job (watchdog lease), prints `holding`, and waits. The
// test then kills it (SIGKILL) or freezes it past its lease (SIGSTOP) and lets it go on. On
// `check` it reports, for each hold, how it learned that the lock was lost: the signal's abort
// reason, whether its fenced write was refused, and what its release threw.
import { createInterface } from 'node:readline';
import { startChildSession } from '@deadbolt/conformance/connect';
import {
  CHECK_COMMAND,
  HOLDER_JOB_VARIABLE,
  type HoldCheck,
  type HolderEvent,
  type HolderJob,
} from '../holder/holderEvents.js';
import type { LockHold } from '@deadbolt/conformance/kinds';
import { kindById } from '../kinds.js';
import { resourceKeys, ResourceStore } from '../store/ResourceStore.js';

// How long a resumed holder waits to be told its lock is lost before reporting that it was not.
const SIGNAL_WAIT_MS = 10_000;

const emit = (event: HolderEvent) => void process.stdout.write(`${JSON.stringify(event)}\n`);

const { job, client, close } = await startChildSession<HolderJob>(HOLDER_JOB_VARIABLE);
const holds = await Promise.all(
  job.subjects.map(async (subject) => {
    const kind = kindById(subject.kind);
    const held = await kind.create([client], subject.lockName, subject.role).acquire({ waitTime: 10_000 });
    return { held, token: kind.token?.(held), keys: resourceKeys(subject.lockName) };
  }),
);
emit({ event: 'holding', tokens: holds.map(({ token }) => (token === undefined ? null : token.toString())) });

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === CHECK_COMMAND) break;
}
// Stop reading for good, or the open pipe keeps the process alive.
process.stdin.destroy();
const store = await ResourceStore.connect(job.store);
const checks: HoldCheck[] = [];
for (const { held, token, keys } of holds) {
  await abortedOrTimeout(held);
  const reason: unknown = held.signal.reason;
  checks.push({
    abortedWith: held.signal.aborted ? (reason instanceof Error ? reason.name : String(reason)) : null,
    fencedWrite:
      token === undefined
        ? null
        : (await store.write(keys, 1, `stale-${process.pid}`, token))
          ? 'accepted'
          : 'rejected',
    release: await held.release().then(
      () => 'released',
      (error: unknown) => (error instanceof Error ? error.name : String(error)),
    ),
  });
}
store.close();
emit({ event: 'checked', holds: checks });
await close();

function abortedOrTimeout(held: LockHold): Promise<void> {
  if (held.signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, SIGNAL_WAIT_MS);
    held.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
