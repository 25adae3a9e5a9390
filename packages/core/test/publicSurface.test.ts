import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

// Every name an entry exports is semver-bound, so each entry is capped: adding a name means
// raising its cap here, on purpose. Names no package outside core uses stay out of them (issue 34).
const ENTRIES = [
  {
    file: 'index.ts',
    // Issue 15: what applications use (the client, locks, held locks, errors, options) stays
    // small. (26: issue 30 added ForceUnlockOptions, the options of `forceUnlock`, which the docs
    // site must show.)
    max: 26,
    sample: 'LockClient',
  },
  {
    file: 'kit.ts',
    // Issue 34: what lock kinds and synchronizers build on (declaring and running a kind, typed
    // commands and their replies, keys, owners, argument checks), with the types their signatures
    // name (the docs site must show them): 85 once the adapters' names moved out and core's
    // internals (the local hand-off registry, `definedScripts`, `decodePttl`, `checkOwner`,
    // `LOCK_WAKES`) left; 88 with the key layouts the kinds declare and the CLI reads
    // (`KeyLayout`, `LOCK_KEY_LAYOUT`, `nameFromPrefixed`).
    max: 88,
    sample: 'lockRuntime',
  },
  {
    file: 'adapter.ts',
    // Issue 34: what an adapter needs beyond the `Executor` type: the listener and command
    // arguments of that contract, the subscriber router and links, options, `hashSlot` and
    // `checkMethods`: 12.
    max: 12,
    sample: 'SubscriberRouter',
  },
] as const;

// Each entry's names, computed once: a program per entry takes seconds.
const namesOf = new Map<string, string[]>();

function exportedNames(entry: string): string[] {
  const known = namesOf.get(entry);
  if (known) return known;
  const file = fileURLToPath(new URL(`../src/${entry}`, import.meta.url));
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`no module symbol for ${entry}`);
  const names = checker.getExportsOfModule(module).map((symbol) => symbol.name);
  namesOf.set(entry, names);
  return names;
}

it.each(ENTRIES)('$file exports at most $max names, types included', ({ file, max, sample }) => {
  const names = exportedNames(file);
  expect(names).toContain(sample);
  expect(names.length, names.join(', ')).toBeLessThanOrEqual(max);
});

it('no name is exported from two entries', () => {
  const owners = new Map<string, string[]>();
  for (const { file } of ENTRIES)
    for (const name of exportedNames(file)) owners.set(name, [...(owners.get(name) ?? []), file]);
  expect([...owners].filter(([, files]) => files.length > 1)).toEqual([]);
});
