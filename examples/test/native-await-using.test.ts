import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startStandalone, type RedisNode } from '@deadbolt/test-harness';
import { afterAll, beforeAll, expect, it } from 'vitest';

// Node 24 runs `await using` itself: waiting.ts, run on Node's own type stripping with no
// transpiler (type stripping removes types and rewrites nothing), takes and releases a lock with it
// there. Before 24 the same run fails, which is why the guides run the examples with tsx: Node 22
// stops at the `await using` line, Node 20 has no type stripping.
const run = promisify(execFile);
const waiting = fileURLToPath(new URL('../src/waiting.ts', import.meta.url));
const nodeMajor = Number(process.versions.node.split('.')[0]);

let server: RedisNode;
beforeAll(async () => {
  server = await startStandalone();
});
afterAll(() => server?.stop());

it(`waiting.ts on Node ${nodeMajor}'s own type stripping, without tsx`, async () => {
  const running = run(process.execPath, ['--experimental-strip-types', waiting], {
    env: { ...process.env, REDIS_URL: server.url },
    timeout: 60_000,
  });
  if (nodeMajor >= 24) {
    const { stdout } = await running;
    expect(stdout).toMatch(/^await using: held by owner \S+\nwithLock returned 42\n/m);
  } else if (nodeMajor >= 22) {
    await expect(running).rejects.toThrow(/SyntaxError: Unexpected identifier 'held'/);
  } else {
    await expect(running).rejects.toThrow(/bad option: --experimental-strip-types/);
  }
});
