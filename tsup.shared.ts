import { defineConfig, type Options } from 'tsup';
import { resolveLua } from './luaIncludes.mjs';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/** Inlines each `.lua` file as text, with the fragments its `--- @include` lines name (luaIncludes.mts). */
const luaWithIncludes: EsbuildPlugin = {
  name: 'deadbolt-lua-includes',
  setup(build) {
    build.onLoad({ filter: /\.lua$/ }, ({ path }) => {
      const { source, files } = resolveLua(path);
      return { contents: source, loader: 'text', watchFiles: [...files] };
    });
  },
};

/** The one build recipe every published package uses: dual ESM + CJS with types for both. */
export function packageBuild(overrides: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    treeshake: true,
    // Lua scripts live in their own files and are inlined as strings at build time.
    esbuildPlugins: [luaWithIncludes],
    ...overrides,
  });
}
