import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// Every TypeScript snippet a reader can see (guides, the site's home page, the READMEs and the
// TSDoc of published packages) must be code that runs: each ```ts block must appear in one file
// of examples/src, which examples.test.ts runs. Lines are compared trimmed, blank lines ignored;
// a line `// ...` in a snippet skips example lines, the parts around it must appear in order in
// the same file. Code blocks in other languages (```js for quoted peer libraries, ```sh) are not
// run, so they must not show Deadbolt code. See examples/README.md.
//
// The comparison ignores layout (whitespace, and a trailing comma Prettier adds where it breaks a
// call over lines): a snippet in a guide is kept narrow by hand, its example is formatted by
// Prettier, and the code is the same.

const root = fileURLToPath(new URL('../../', import.meta.url));
const sources = join(root, 'examples/src');
const ELISION = '// ...';
const CHECKED = new Set(['ts', 'typescript', 'mts', 'cts']);
const DEADBOLT_CODE = /@deadbolt\/|\bLockClient\b|\bwithLock\b|\bFairLock\b|\bReadWriteLock\b/;

interface Block {
  readonly where: string;
  readonly language: string;
  readonly lines: readonly string[];
}

const normalize = (lines: readonly string[]) => lines.map((line) => line.trim()).filter((line) => line !== '');

function blocks(path: string, text: string, firstLine = 1): Block[] {
  const found: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\S*)/.exec(lines[i] ?? '');
    if (!open) continue;
    const start = i;
    while (++i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? ''));
    found.push({ where: `${path}:${firstLine + start}`, language: open[1] ?? '', lines: lines.slice(start + 1, i) });
  }
  return found;
}

// ```ts blocks inside TSDoc comments, with the comment's leading `*` taken off.
function tsdocBlocks(path: string, text: string): Block[] {
  return [...text.matchAll(/\/\*\*[\s\S]*?\*\//g)].flatMap((comment) => {
    const line = text.slice(0, comment.index).split('\n').length;
    const body = comment[0]
      .split('\n')
      .map((l) => l.replace(/^\s*\/?\*+\/?/, '').replace(/\*\/$/, ''))
      .join('\n');
    return blocks(path, body, line);
  });
}

function publishedPackages(): string[] {
  const dir = join(root, 'packages');
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter(
      (path) =>
        existsSync(join(path, 'package.json')) &&
        !(JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as { private?: boolean }).private,
    );
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

function allBlocks(): Block[] {
  const markdown = [
    'README.md',
    'docs/index.md',
    ...readdirSync(join(root, 'docs/guides'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/guides/${f}`),
    ...publishedPackages()
      .map((path) => relative(root, join(path, 'README.md')))
      .filter((path) => existsSync(join(root, path))),
  ];
  return [
    ...markdown.flatMap((path) => blocks(path, readFileSync(join(root, path), 'utf8'))),
    ...publishedPackages()
      .flatMap((path) => tsFiles(join(path, 'src')))
      .flatMap((file) => tsdocBlocks(relative(root, file), readFileSync(file, 'utf8'))),
  ];
}

const examples = tsFiles(sources).map((file) => ({
  file: relative(root, file),
  lines: normalize(readFileSync(file, 'utf8').split('\n')),
}));

/** The code of `lines` without its layout: no whitespace, no comma a closing bracket follows. */
const withoutLayout = (lines: readonly string[]) =>
  lines
    .join('')
    .replace(/\s+/g, '')
    .replace(/,(?=[)\]}>])/g, '');

/** Where `parts` appear in order in `lines`, or the first part that does not. */
function firstMissingPart(parts: readonly string[][], lines: readonly string[]): string[] | undefined {
  const code = withoutLayout(lines);
  let from = 0;
  for (const part of parts) {
    const at = code.indexOf(withoutLayout(part), from);
    if (at < 0) return part;
    from = at + withoutLayout(part).length;
  }
  return undefined;
}

function splitAtElisions(lines: readonly string[]): string[][] {
  const parts: string[][] = [[]];
  for (const line of normalize(lines)) {
    if (line === ELISION) parts.push([]);
    else parts.at(-1)?.push(line);
  }
  return parts.filter((part) => part.length > 0);
}

/** Where the longest run of the snippet's first lines appears, for the failure message. */
function closestMatch(snippet: readonly string[]): string {
  let best = { file: '', matched: 0 };
  for (const { file, lines } of examples) {
    for (let at = 0; at < lines.length; at++) {
      let matched = 0;
      while (matched < snippet.length && lines[at + matched] === snippet[matched]) matched++;
      if (matched > best.matched) best = { file, matched };
    }
  }
  const differing = `"${snippet[best.matched]}"`;
  return best.matched === 0
    ? `no example has its first line ${differing}`
    : `closest: ${best.file}, which differs at ${differing}`;
}

it('finds the snippets it checks', () => {
  const checked = allBlocks().filter((block) => CHECKED.has(block.language));
  // The guides and the READMEs show code; an extraction that finds none is broken.
  expect(checked.filter((block) => block.where.startsWith('docs/guides/')).length).toBeGreaterThan(10);
  expect(checked.some((block) => block.where.startsWith('README.md'))).toBe(true);
});

it('every TypeScript snippet in the docs, READMEs and TSDoc is code of a runnable example', () => {
  const problems = allBlocks()
    .filter((block) => CHECKED.has(block.language))
    .flatMap((block) => {
      const parts = splitAtElisions(block.lines);
      if (parts.length === 0) return [`${block.where}: empty snippet`];
      if (examples.some(({ lines }) => firstMissingPart(parts, lines) === undefined)) return [];
      return [`${block.where}: not found in examples/src; ${closestMatch(parts.flat())}`];
    });
  expect(problems).toEqual([]);
});

it('code blocks that are not run show no Deadbolt code', () => {
  const problems = allBlocks()
    .filter((block) => !CHECKED.has(block.language) && DEADBOLT_CODE.test(block.lines.join('\n')))
    .filter((block) => block.language !== 'sh' && block.language !== 'bash')
    .map(
      (block) =>
        `${block.where}: a \`\`\`${block.language || '(no language)'} block with Deadbolt code; make it a \`\`\`ts block from an example`,
    );
  expect(problems).toEqual([]);
});
