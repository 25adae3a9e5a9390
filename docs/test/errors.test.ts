import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The getting started guide's "Errors" section says every error Deadbolt throws on purpose
// extends `LockError`, and names them: it must name every one a published package exports.
const root = fileURLToPath(new URL('../../', import.meta.url));

function publishedSources(): string[] {
  return readdirSync(join(root, 'packages'))
    .map((name) => join(root, 'packages', name))
    .filter(
      (dir) =>
        existsSync(join(dir, 'package.json')) &&
        !(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { private?: boolean }).private,
    )
    .map((dir) => join(dir, 'src'));
}

/** The error classes the published packages export: `LockError` and every class extending it, directly or not. */
function exportedErrors(): string[] {
  const parents = new Map<string, string>();
  const exported = new Set<string>();
  for (const src of publishedSources()) {
    const index = readFileSync(join(src, 'index.ts'), 'utf8');
    for (const entry of readdirSync(src, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
      for (const [, name = '', parent = ''] of text.matchAll(/^export class (\w+) extends (\w+)/gm)) {
        parents.set(name, parent);
        if (new RegExp(`\\b${name}\\b`).test(index)) exported.add(name);
      }
    }
  }
  const isLockError = (name: string): boolean =>
    name === 'LockError' || (parents.has(name) && isLockError(parents.get(name) ?? ''));
  return [...exported].filter(isLockError).sort();
}

function errorsSection(): string {
  const guide = readFileSync(join(root, 'docs/guides/getting-started.md'), 'utf8');
  return guide.slice(guide.indexOf('\n## Errors\n'), guide.indexOf('\n## ', guide.indexOf('\n## Errors\n') + 1));
}

it('the getting started guide names every error class the packages export', () => {
  const errors = exportedErrors();
  // What the scan finds: core's errors and those of the kinds.
  expect(errors).toEqual(expect.arrayContaining(['LockError', 'PermissionDeniedError', 'LockUpgradeError']));
  const section = errorsSection();
  expect(errors.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
});
