// One process of a comparison: loads a build, warms up, waits for the parent's go, runs its job
// and sends the measurement back over IPC. Started by runWorkers.ts with the job as its argument.
import {
  GO,
  READY,
  type CompareJob,
  type ContendJob,
  type ContendResult,
  type CyclesJob,
  type CyclesResult,
} from './jobs.js';
import { loadClient, type LoadedClient } from './loadBuild.js';

// Scenario 3's lease (see the bench's handoff scenario): a waiter that misses a wake-up waits at most this.
const CONTENDED_LEASE_MS = 3_000;

async function cycles(
  client: LoadedClient,
  { tasks, cyclesPerTask }: CyclesJob,
  ready: () => Promise<void>,
): Promise<CyclesResult> {
  const locks = Array.from({ length: tasks }, (_, task) => client.lock(`bench:compare:${process.pid}:${task}`));
  const round = (count: number) =>
    Promise.all(
      locks.map(async (lock) => {
        for (let i = 0; i < count; i++) await (await lock.acquire()).release();
      }),
    );
  await round(Math.max(1, Math.ceil(cyclesPerTask / 10)));
  await ready();
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  await round(cyclesPerTask);
  const ms = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuBefore);
  return { ms, cycles: tasks * cyclesPerTask, clientCpuUs: cpu.user + cpu.system };
}

async function contend(
  client: LoadedClient,
  { name, tasks, acquisitions }: ContendJob,
  ready: () => Promise<void>,
): Promise<ContendResult> {
  await (await client.lock(`bench:compare:warm:${process.pid}`).acquire()).release();
  const lock = client.lock(name);
  const waitsMs: number[] = [];
  let left = acquisitions;
  await ready();
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: tasks }, async () => {
      while (left-- > 0) {
        const asked = performance.now();
        const held = await lock.acquire();
        waitsMs.push(performance.now() - asked);
        await held.release();
      }
    }),
  );
  return { ms: performance.now() - startedAt, waitsMs };
}

// A parent that went away will send no go: nothing is left to do.
process.once('disconnect', () => process.exit());
const job = JSON.parse(process.argv[2] ?? '') as CompareJob;
const { client, close } = await loadClient(
  job.checkout,
  job.driver,
  job.port,
  job.work.kind === 'contend' ? { watchdogTimeout: CONTENDED_LEASE_MS } : {},
);
const started = new Promise<void>((resolve) => process.on('message', (message) => message === GO && resolve()));
const send = (message: unknown) =>
  new Promise<void>((resolve, reject) =>
    process.send?.(message, (error: Error | null) => (error ? reject(error) : resolve())),
  );
// Told ready once warmed up; the measured part starts at the parent's go, when every worker of the run is ready.
const ready = async () => {
  await send(READY);
  await started;
};
const result =
  job.work.kind === 'cycles' ? await cycles(client, job.work, ready) : await contend(client, job.work, ready);
await close();
await send(result);
process.disconnect();
