// Generates the docs pages whose content is checked-in results: each template in docs/templates/
// names a results file with a `<!-- results: <path> -->` line, and becomes docs/guides/<name> with
// that file's tables in place of the line, and charts of the results beside them (SVG files in
// docs/guides/charts/, drawn from the JSON the tables come from; see scripts/results-page.mts).
// Run before typedoc (`pnpm run docs`, .ci/run, the site test), so the published pages always
// show the results in the repository; typedoc copies the charts the pages link into the site's
// media/. A missing results file fails the build: the site must not publish a page without its
// figures. The generated pages and charts are git-ignored, so guides link the results file itself
// (which GitHub shows); in the site, scripts/typedoc-results-pages.mjs leads those links to the
// generated page.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHART_DIRECTORY, resultsPage } from './results-page.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const charts = join(root, CHART_DIRECTORY);

// Drawn afresh each time: no chart of an earlier run stays behind.
rmSync(charts, { recursive: true, force: true });
mkdirSync(charts, { recursive: true });

const missing: string[] = [];
for (const name of readdirSync(join(root, 'docs/templates')).filter((file) => file.endsWith('.md'))) {
  const generated = resultsPage(root, name);
  if (generated.page === undefined) {
    missing.push(...generated.missing.map((file) => `${file} (for docs/guides/${name})`));
    continue;
  }
  for (const chart of generated.charts) writeFileSync(join(charts, chart.file), chart.svg);
  writeFileSync(join(root, 'docs/guides', name), generated.page);
  console.log(`docs-pages: docs/guides/${name} from ${generated.source}, ${generated.charts.length} charts`);
}
if (missing.length > 0) {
  console.error(
    `docs-pages: no results to publish; run the suite that writes them and check them in:\n  ${missing.join('\n  ')}`,
  );
  process.exit(1);
}
