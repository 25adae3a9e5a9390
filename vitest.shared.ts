import { defineProject, type Plugin, type UserWorkspaceConfig } from 'vitest/config';
import { resolveLua } from './luaIncludes.mjs';

/**
 * Lets tests import `.lua` files as text, with the fragments their `--- @include` lines name, the
 * way the tsup build inlines them (`?raw` still gives a file as written, include lines and all).
 */
const luaWithIncludes: Plugin = {
  name: 'deadbolt-lua-includes',
  transform(_code, id) {
    if (!id.endsWith('.lua')) return null;
    const { source, files } = resolveLua(id);
    for (const file of files) this.addWatchFile(file);
    return { code: `export default ${JSON.stringify(source)};`, map: null };
  },
};

/**
 * The one vitest project recipe: a package's project is named after the package, and
 * integration projects get the harness's global setup so every redis-server the run starts is
 * stopped by pid at the end, even when a test fails or the run is interrupted.
 */
export function packageProject(name: string, options: { redis?: boolean; timeoutMs?: number } = {}) {
  const config: UserWorkspaceConfig = {
    plugins: [luaWithIncludes],
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
