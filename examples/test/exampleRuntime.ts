import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The runtimes the examples are run on. `node`, the default, is this process's Node with tsx, as
 * the guides tell users to run them; `bun` is the `bun` on PATH, which runs TypeScript itself
 * (scripts/runtimes/bun-examples.sh puts the pinned Bun there). Every example runs on Bun 1.4.5,
 * GLIDE's native module and the Nest example's decorator metadata included: none is left out there.
 */
const RUNTIMES = ['node', 'bun'] as const;
export type ExampleRuntime = (typeof RUNTIMES)[number];

/** The runtime named by `DEADBOLT_EXAMPLES_RUNTIME`, `node` when it is unset. */
export function exampleRuntime(name = process.env['DEADBOLT_EXAMPLES_RUNTIME'] ?? 'node'): ExampleRuntime {
  const runtime = RUNTIMES.find((known) => known === name);
  if (!runtime) {
    throw new TypeError(`DEADBOLT_EXAMPLES_RUNTIME must be one of ${RUNTIMES.join(', ')}, got ${JSON.stringify(name)}`);
  }
  return runtime;
}

/** The command and arguments that run the example at `path` on `runtime`. */
export function exampleCommand(runtime: ExampleRuntime, path: string): [string, string[]] {
  return runtime === 'bun' ? ['bun', [path]] : [process.execPath, ['--import', require.resolve('tsx'), path]];
}
