import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

// examples/jest is an application's test suite under jest, on @deadbolt/testing's CommonJS build:
// it must pass as `npx jest` would run it.
const require = createRequire(import.meta.url);
const run = promisify(execFile);

it('the jest application tests pass', async () => {
  // jest's exports map hides its bin; it sits beside the main entry's build directory.
  const jest = join(dirname(require.resolve('jest')), '../bin/jest.js');
  const config = fileURLToPath(new URL('../jest/jest.config.cjs', import.meta.url));
  const { stderr } = await run(process.execPath, [jest, '--config', config, '--ci'], { timeout: 60_000 });
  expect(stderr).toMatch(/^Tests: +1 passed, 1 total$/m);
});
