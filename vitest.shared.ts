import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

/** Lets unit tests import `.lua` files as text, the way the tsup build inlines them. */
const luaAsText = {
  name: 'deadbolt-lua-as-text',
  transform(code: string, id: string) {
    if (!id.endsWith('.lua')) return null;
    return { code: `export default ${JSON.stringify(code)};`, map: null };
  },
};

/**
 * The one vitest project recipe: a package's project is named after the package, and
 * integration projects get the harness's global setup so every redis-server the run starts is
 * stopped by pid at the end, even when a test fails or the run is interrupted.
 */
export function packageProject(name: string, options: { redis?: boolean; timeoutMs?: number } = {}) {
  const config: UserWorkspaceConfig = {
    plugins: [luaAsText],
    test: {
      name,
      include: ['test/**/*.test.ts'],
      testTimeout: options.timeoutMs ?? (options.redis ? 60_000 : 10_000),
      hookTimeout: options.redis ? 120_000 : 10_000,
      ...(options.redis
        ? { globalSetup: [new URL('./packages/test-harness/src/global-setup.ts', import.meta.url).pathname] }
        : {}),
    },
  };
  return defineProject(config);
}
