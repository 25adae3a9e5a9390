import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

// The `--- @include "<fragment>"` directive of the `.lua` files, resolved at build time by the
// tsup build (tsup.shared.ts) and in tests (vitest.shared.ts), so a script names the fragments it is
// written over instead of TypeScript joining their text.
//
//   --- @include "hold-markers"             hold-markers.lua beside the including file
//   --- @include "@deadbolt/core/lock-hold"  lock-hold.lua among core's fragments, for a kind package
//
// A file's text follows the fragments it includes (each with its own includes first), in the
// order of its include lines, joined by a newline; the include lines themselves are dropped. A
// fragment reached twice is emitted once, where it is first reached.

/** An include line: the whole line, and the fragment it names. */
const INCLUDE_LINE = /^--- @include "([^"]*)"[ \t]*\r?\n?/gm;

/** How a fragment of core's is named from another package's script. */
const CORE_FRAGMENTS = '@deadbolt/core/';

/** A script with its includes resolved: the source Redis runs, and every file it was built from. */
export interface ResolvedLua {
  /** The fragments' text, then the script's own, include lines dropped. */
  readonly source: string;
  /** Every fragment it reached, in the order of their text, then the script's own file: for a watcher to follow. */
  readonly files: readonly string[];
}

/** Resolves the include lines of the `.lua` file at `file` (an absolute path). */
export function resolveLua(file: string): ResolvedLua {
  const parts: string[] = [];
  const emitted = new Set<string>();
  const visit = (path: string, chain: readonly string[]): void => {
    const text = readFileSync(path, 'utf8');
    for (const include of includesOf(text)) {
      const target = includedFile(path, include);
      if (chain.includes(target)) {
        const cycle = [...chain.slice(chain.indexOf(target)), target].map((step) => relative(process.cwd(), step));
        throw new Error(`${path}:${include.line}: include cycle ${cycle.join(' -> ')}`);
      }
      if (!emitted.has(target)) visit(target, [...chain, target]);
    }
    parts.push(withoutIncludes(text));
    emitted.add(path);
  };
  const start = realpathSync(file);
  visit(start, [start]);
  return { source: parts.join('\n'), files: [...emitted] };
}

/** A `.lua` file's text without its include lines: what the file itself adds to a script. */
export function withoutIncludes(text: string): string {
  return text.replace(INCLUDE_LINE, '');
}

/** An include line of a file: the fragment it names, and its line number. */
interface Include {
  readonly name: string;
  readonly line: number;
}

function includesOf(text: string): Include[] {
  return [...text.matchAll(INCLUDE_LINE)].map((match) => ({
    name: match[1] ?? '',
    line: text.slice(0, match.index).split('\n').length,
  }));
}

/** The file an include line names, followed through symlinks; fails with the line when there is none. */
function includedFile(from: string, include: Include): string {
  const path = include.name.startsWith(CORE_FRAGMENTS)
    ? join(coreFragments(from), `${include.name.slice(CORE_FRAGMENTS.length)}.lua`)
    : resolve(dirname(from), `${include.name}.lua`);
  if (!include.name || !existsSync(path)) {
    throw new Error(`${from}:${include.line}: cannot include "${include.name}": no file ${path}`);
  }
  return realpathSync(path);
}

/** Core's fragments, as the package of `from` resolves `@deadbolt/core` (the workspace's source). */
function coreFragments(from: string): string {
  const manifest = createRequire(from).resolve('@deadbolt/core/package.json');
  return join(dirname(manifest), 'src', 'scripts', 'lua');
}
