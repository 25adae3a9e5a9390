// `pnpm demo`: several processes contend for one Deadbolt lock on a throwaway redis-server (or
// REDIS_URL), each printing when it holds the lock; at the end the protected counter must equal
// the number of holds, i.e. no update was lost.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { useStandalone } from '@deadbolt/test-harness';
import { Redis } from 'ioredis';

const PROCESSES = 4;
const TASKS = 3;
const ROUNDS = 5;

const require = createRequire(import.meta.url);
const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));

const server = await useStandalone();
console.log(server.node ? `Started redis-server on port ${server.port} (pid ${server.node.pid})` : `Using REDIS_URL ${server.url}`);
const redis = new Redis(server.url);
try {
  await redis.del('demo:counter', 'demo:lock');
  console.log(`${PROCESSES} processes x ${TASKS} tasks x ${ROUNDS} rounds contend for lock "demo:lock"\n`);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: PROCESSES }, (_, i) =>
      run(process.execPath, ['--import', require.resolve('tsx'), worker, server.url, `process${i + 1}`, String(TASKS), String(ROUNDS)]),
    ),
  );
  const elapsed = performance.now() - started;
  const holds = PROCESSES * TASKS * ROUNDS;
  const counter = Number(await redis.get('demo:counter'));
  console.log(`\n${holds} holds in ${(elapsed / 1000).toFixed(1)} s; counter = ${counter}; lost updates: ${holds - counter}`);
  process.exitCode = counter === holds ? 0 : 1;
} finally {
  redis.disconnect();
  await server.stop();
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args[3]} exited with code ${code}`))));
  });
}
