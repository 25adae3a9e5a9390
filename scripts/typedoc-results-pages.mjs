// @ts-check
// A typedoc plugin (typedoc.json `plugin`): in the site, a link to a checked-in results file
// (`../../bench/results/latest.md` from a guide) leads to the page generated from it
// (docs/guides/benchmarks.md, by scripts/docs-pages.mts), not to a copy of the raw file. So the
// guides link the results file, which GitHub shows, and the site shows its page: one source, and
// links that work in both. The pairs come from the templates' `<!-- results: <path> -->` lines,
// the same ones scripts/docs-pages.mts reads.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { ReflectionKind, Renderer } from 'typedoc';

const root = fileURLToPath(new URL('..', import.meta.url));
const templates = join(root, 'docs/templates');
const MARKER = /^<!-- results: (\S+) -->$/m;

/** Each results file with the generated guide that shows it, as absolute paths. */
function resultPages() {
  return readdirSync(templates)
    .filter((file) => file.endsWith('.md'))
    .flatMap((name) => {
      const source = MARKER.exec(readFileSync(join(templates, name), 'utf8'))?.[1];
      return source === undefined ? [] : [{ source: resolve(root, source), page: resolve(root, 'docs/guides', name) }];
    });
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.renderer.on(
    Renderer.EVENT_BEGIN,
    (event) => {
      const { project } = event;
      const documents = project.getReflectionsByKind(ReflectionKind.Document);
      for (const { source, page } of resultPages()) {
        const document = documents.find((reflection) => project.files.getReflectionPath(reflection) === page);
        if (document === undefined) {
          app.logger.warn(`typedoc-results-pages: no page ${page} for ${source}; run scripts/docs-pages.mts first`);
          continue;
        }
        project.files.registerReflectionPath(/** @type {import('typedoc').NormalizedPath} */ (source), document);
      }
    },
    // Before any page is rendered, so every link to a results file resolves to its page.
    1000,
  );
}
