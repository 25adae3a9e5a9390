import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

// Issue 15: the main entry is what applications use and is semver-bound, so it stays small;
// what lock-kind and adapter authors need lives in `@deadbolt/core/kit`. (26: issue 30 added
// ForceUnlockOptions, the options of `forceUnlock`, which the docs site must show.)
const MAX_MAIN_EXPORTS = 26;

function exportedNames(entry: string): string[] {
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
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

it(`the main entry exports at most ${MAX_MAIN_EXPORTS} names, types included`, () => {
  const names = exportedNames('index.ts');
  expect(names).toContain('LockClient');
  expect(names.length, names.join(', ')).toBeLessThanOrEqual(MAX_MAIN_EXPORTS);
});

it('the kit entry names nothing the main entry has', () => {
  const main = new Set(exportedNames('index.ts'));
  expect(exportedNames('kit.ts').filter((name) => main.has(name))).toEqual([]);
});
