import { defineConfig, type Options } from 'tsup';

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
    loader: { '.lua': 'text' },
    ...overrides,
  });
}
