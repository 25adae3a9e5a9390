// `pnpm demo`: on a throwaway redis-server (or REDIS_URL), first several processes contend for one
// Deadbolt lock, each printing when it holds the lock; the protected counter must end equal to
// the number of holds, i.e. no update was lost. Then waiters in three processes ask for a lock one
// after another while it is held, once for the plain Lock and once for the FairLock, and the
// order in which each kind granted it is printed next to the order of arrival.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { LockClient } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { useStandalone } from '@deadbolt/test-harness';
import { Redis } from 'ioredis';
import { readWriteDemo } from './rwlock.js';

const PROCESSES = 4;
const TASKS = 3;
const ROUNDS = 5;
const QUEUERS = 3;
const WAITERS = 12;
const ARRIVAL_GAP = 40;

const require = createRequire(import.meta.url);
const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));
const runWorker = (args: string[]) => run(process.execPath, ['--import', require.resolve('tsx'), worker, ...args]);

const server = await useStandalone();
console.log(server.node ? `Started redis-server on port ${server.port} (pid ${server.node.pid})` : `Using REDIS_URL ${server.url}`);
const redis = new Redis(server.url);
const locks = new LockClient(ioredisExecutor(redis));
try {
  await redis.del('demo:counter', 'demo:lock', ...['Lock', 'FairLock'].flatMap((kind) => [`demo:order:${kind}`, `demo:ready:${kind}`, `demo:go:${kind}`]));
  console.log(`${PROCESSES} processes x ${TASKS} tasks x ${ROUNDS} rounds contend for lock "demo:lock"\n`);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: PROCESSES }, (_, i) => runWorker(['contend', server.url, `process${i + 1}`, String(TASKS), String(ROUNDS)])),
  );
  const elapsed = performance.now() - started;
  const holds = PROCESSES * TASKS * ROUNDS;
  const counter = Number(await redis.get('demo:counter'));
  console.log(`\n${holds} holds in ${(elapsed / 1000).toFixed(1)} s; counter = ${counter}; lost updates: ${holds - counter}`);

  console.log(`\nHandoff order: ${WAITERS} waiters in ${QUEUERS} processes ask ${ARRIVAL_GAP} ms apart while the lock is held`);
  const arrival = Array.from({ length: WAITERS }, (_, i) => `w${i}`);
  console.log(`  arrival   ${arrival.join(' ')}`);
  for (const kind of ['Lock', 'FairLock']) {
    const name = `demo:order-lock:${kind}`;
    const held = await (kind === 'FairLock' ? new FairLock(locks, name) : locks.lock(name)).acquire();
    // Waiter w<i> runs in process i % QUEUERS and asks at startAt + i * ARRIVAL_GAP, once every
    // process is ready (starting one takes a while on a busy machine).
    const schedule = (p: number) => arrival.flatMap((label, i) => (i % QUEUERS === p ? [`${label}@${i * ARRIVAL_GAP}`] : []));
    const queued = Array.from({ length: QUEUERS }, (_, p) => runWorker(['queue', server.url, kind, ...schedule(p)]));
    const signals = redis.duplicate();
    for (let p = 0; p < QUEUERS; p++) await signals.blpop(`demo:ready:${kind}`, 0);
    signals.disconnect();
    const startAt = Date.now() + 100;
    await redis.rpush(`demo:go:${kind}`, ...Array.from({ length: QUEUERS }, () => String(startAt)));
    await new Promise((resolve) => setTimeout(resolve, startAt + WAITERS * ARRIVAL_GAP + 200 - Date.now()));
    await held.release();
    await Promise.all(queued);
    const granted = await redis.lrange(`demo:order:${kind}`, 0, -1);
    const inOrder = granted.join(' ') === arrival.join(' ');
    console.log(`  ${kind.padEnd(9)} ${granted.join(' ')}  (${inOrder ? 'arrival order' : 'not arrival order'})`);
  }
  await readWriteDemo(locks);
  process.exitCode = counter === holds ? 0 : 1;
} finally {
  await locks.close();
  redis.disconnect();
  await server.stop();
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${args.slice(3).join(' ')} exited with code ${code}`))));
  });
}
