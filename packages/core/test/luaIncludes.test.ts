// The `--- @include` directive of the .lua files (issue 34): the resolver the tsup build and the
// tests share, on scratch files, and every .lua file of the repository against its rules.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveLua, withoutIncludes } from '../../../luaIncludes.mjs';
import { coreLua } from '../src/scripts/coreScripts.js';

const packagesDir = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));

describe('resolveLua', () => {
  let dir: string;
  const write = (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
  };
  const resolved = (name: string) => resolveLua(join(dir, name)).source;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lua-includes-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('puts the included file first, joined by a newline, and drops the include line', () => {
    write({ 'a.lua': 'local a = 1\n', 'script.lua': '--- @include "a"\nreturn a\n' });
    expect(resolved('script.lua')).toBe('local a = 1\n\nreturn a\n');
  });

  it('leaves a file without include lines as it is', () => {
    write({ 'script.lua': '-- KEYS[1]  a key\nreturn 1\n' });
    expect(resolved('script.lua')).toBe('-- KEYS[1]  a key\nreturn 1\n');
  });

  it("resolves includes of includes first, in the order of each file's include lines", () => {
    write({
      'base.lua': 'base\n',
      'lib/mid.lua': '--- @include "../base"\nmid\n',
      'other.lua': 'other\n',
      'script.lua': '--- @include "other"\n--- @include "lib/mid"\nscript\n',
    });
    expect(resolved('script.lua')).toBe('other\n\nbase\n\nmid\n\nscript\n');
  });

  it('includes a fragment reached twice once, where it is first reached', () => {
    write({
      'base.lua': 'base\n',
      'left.lua': '--- @include "base"\nleft\n',
      'right.lua': '--- @include "base"\nright\n',
      'script.lua': '--- @include "left"\n--- @include "right"\n--- @include "base"\nscript\n',
    });
    expect(resolved('script.lua')).toBe('base\n\nleft\n\nright\n\nscript\n');
  });

  it('reports every file a script was built from', () => {
    write({ 'a.lua': 'a\n', 'b.lua': '--- @include "a"\nb\n', 'script.lua': '--- @include "b"\nscript\n' });
    expect(resolveLua(join(dir, 'script.lua')).files.map((file) => basename(file))).toEqual([
      'a.lua',
      'b.lua',
      'script.lua',
    ]);
  });

  it('fails on a missing fragment, naming the file and the line', () => {
    write({ 'script.lua': '-- a header\n--- @include "nowhere"\nreturn 1\n' });
    expect(() => resolved('script.lua')).toThrow(/script\.lua:2: cannot include "nowhere": no file .*nowhere\.lua/);
  });

  it('fails on a missing fragment inside an included one, naming that file', () => {
    write({ 'a.lua': '\n\n--- @include "gone"\n', 'script.lua': '--- @include "a"\nreturn 1\n' });
    expect(() => resolved('script.lua')).toThrow(/a\.lua:3: cannot include "gone"/);
  });

  it('fails on an include cycle, naming its steps', () => {
    write({
      'a.lua': '--- @include "b"\na\n',
      'b.lua': '--- @include "a"\nb\n',
      'script.lua': '--- @include "a"\nscript\n',
    });
    expect(() => resolved('script.lua')).toThrow(/b\.lua:1: include cycle .*a\.lua -> .*b\.lua -> .*a\.lua/);
  });

  it('fails on a file that includes itself', () => {
    write({ 'script.lua': '--- @include "script"\nscript\n' });
    expect(() => resolved('script.lua')).toThrow(/script\.lua:1: include cycle/);
  });

  it("resolves @deadbolt/core/<fragment> among core's fragments, as the including package finds core", () => {
    mkdirSync(join(dir, 'node_modules', '@deadbolt'), { recursive: true });
    symlinkSync(join(packagesDir, 'core'), join(dir, 'node_modules', '@deadbolt', 'core'));
    write({
      'script.lua':
        '--- @include "@deadbolt/core/lock-hold"\n--- @include "@deadbolt/core/request-deadline"\nreturn 1\n',
    });
    expect(resolved('script.lua')).toBe(`${coreLua.hold}\nreturn 1\n`);
  });

  it('withoutIncludes drops only include lines', () => {
    expect(withoutIncludes('--- @include "a"\n-- @include "b"\nreturn 1 --- @include "c"\n')).toBe(
      '-- @include "b"\nreturn 1 --- @include "c"\n',
    );
  });
});

describe("the repository's .lua files", () => {
  const luaFiles = readdirSync(packagesDir)
    .map((pkg) => join(packagesDir, pkg, 'src'))
    .filter((src) => existsSync(src))
    .flatMap((src) =>
      readdirSync(src, { recursive: true, encoding: 'utf8' })
        .filter((path) => path.endsWith('.lua'))
        .map((path) => join(src, path)),
    );
  // A script's own file comes last in what it was built from.
  const includedFiles = new Set(luaFiles.flatMap((file) => resolveLua(file).files.slice(0, -1)));
  const named = (files: Iterable<string>) => [...files].map((file) => [relative(packagesDir, file), file]);

  it('are found', () => expect(luaFiles.length).toBeGreaterThan(40));

  it.each(named(luaFiles))('%s: include lines come first, above its header', (_name, file) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    const firstOther = lines.findIndex((line) => !line.startsWith('--- @include '));
    expect(lines.slice(firstOther).some((line) => line.startsWith('--- @include'))).toBe(false);
  });

  it.each(named(includedFiles))('%s, which a script includes, says it is a fragment', (_name, file) =>
    expect(withoutIncludes(readFileSync(file, 'utf8'))).toMatch(/^-- A fragment, not a script/),
  );
});
