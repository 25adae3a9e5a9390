import { mergeConfig } from 'vitest/config';
import { packageProject } from '../vitest.shared';

// The harness's global setup (every redis-server stopped at the end) plus the suite's own, which
// adds up the figures of every test into results/latest.json and latest.md.
export default mergeConfig(packageProject('@deadbolt/reliability', { redis: true }), {
  test: { globalSetup: [new URL('./src/results/global-setup.ts', import.meta.url).pathname] },
});
