import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { githubAnchors, relativeLinks } from '../../scripts/markdownLinks.mjs';

// Every relative link in the repository's markdown (the README, the guides, the package READMEs
// and every other page GitHub shows) resolves on GitHub: its target is a file or folder of the
// repository, not a git-ignored one such as a page generated for the site, and an anchor into a
// markdown file names one of its headings, by GitHub's rules. The site's own links are checked by
// site.test.ts on the built site; the links in packed tarballs by the release check.
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The files GitHub shows once committed: tracked, or new and not ignored (`git ls-files`). */
function repositoryFiles(): Set<string> {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return new Set(listed.split('\0').filter((path) => path !== ''));
}

const files = repositoryFiles();
const folders = new Set(
  [...files].flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const markdown = [...files].filter((file) => file.endsWith('.md') && !file.split('/').includes('node_modules')).sort();

/**
 * Where a page's links are read from. A template in docs/templates/ is published as
 * docs/guides/<name> (scripts/docs-pages.mts), so its links are relative to docs/guides.
 */
const publishedDirectory = (file: string) => (file.startsWith('docs/templates/') ? 'docs/guides' : dirname(file));

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorsOf.get(file);
  if (!found) anchorsOf.set(file, (found = githubAnchors(readFileSync(join(root, file), 'utf8'))));
  return found;
}

/** What is wrong with one link of `file`, or undefined when it resolves. */
function problem(file: string, path: string, anchor: string | undefined): string | undefined {
  const target =
    path === ''
      ? file
      : posix
          .normalize(path.startsWith('/') ? path.slice(1) : posix.join(publishedDirectory(file), path))
          .replace(/\/$/, '');
  if (target.startsWith('../')) return 'points outside the repository';
  if (!files.has(target) && !folders.has(target) && target !== '.')
    return `${target} is not in the repository (missing, or git-ignored)`;
  if (
    anchor !== undefined &&
    anchor !== '' &&
    target.endsWith('.md') &&
    files.has(target) &&
    !anchors(target).has(anchor)
  ) {
    return `${target} has no heading with the anchor #${anchor}`;
  }
  return undefined;
}

it('reads links and anchors as GitHub does', () => {
  const text = [
    '# Title',
    '## `withLock` and _friends_: a snake_case name',
    '## Title',
    '```ts',
    '[not a link](a-link.md)',
    '```',
    'See [x](./a.md#b) and `[not](c.md)`, ![i](img.png "title"), [out](https://example.com/x.md).',
    '[ref]: ./d.md',
  ].join('\n');
  expect(relativeLinks(text).map((link) => [link.line, link.path, link.anchor])).toEqual([
    [7, './a.md', 'b'],
    [7, 'img.png', undefined],
    [8, './d.md', undefined],
  ]);
  expect([...githubAnchors(text)]).toEqual(['title', 'withlock-and-friends-a-snake_case-name', 'title-1']);
});

it('reads the README, the guides and the package READMEs', () => {
  expect(markdown).toEqual(
    expect.arrayContaining([
      'README.md',
      'docs/index.md',
      'docs/guides/getting-started.md',
      'packages/core/README.md',
      'examples/README.md',
    ]),
  );
  expect(markdown.filter((file) => file.startsWith('docs/guides/')).length).toBeGreaterThan(10);
  // The parser finds links: the README links the guides.
  expect(relativeLinks(readFileSync(join(root, 'README.md'), 'utf8')).length).toBeGreaterThan(2);
});

it("the published packages' READMEs link nothing relative: a tarball holds none of what such a link points to", () => {
  const isPublished = (file: string) =>
    !(JSON.parse(readFileSync(join(root, dirname(file), 'package.json'), 'utf8')) as { private?: boolean }).private;
  const packageReadmes = markdown.filter((file) => /^packages\/[^/]+\/README\.md$/.test(file) && isPublished(file));
  expect(packageReadmes).toContain('packages/core/README.md');
  const links = packageReadmes.flatMap((file) =>
    relativeLinks(readFileSync(join(root, file), 'utf8')).map(({ line, target }) => `${file}:${line}: ${target}`),
  );
  expect(links).toEqual([]);
});

it('every relative link in the repository markdown resolves in the repository', () => {
  const problems = markdown.flatMap((file) =>
    relativeLinks(readFileSync(join(root, file), 'utf8')).flatMap(({ line, target, path, anchor }) => {
      const wrong = problem(file, path, anchor);
      return wrong === undefined ? [] : [`${file}:${line}: (${target}) ${wrong}`];
    }),
  );
  expect(problems).toEqual([]);
});
