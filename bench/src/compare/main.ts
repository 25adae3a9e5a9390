// `pnpm bench:compare <ref>`: this checkout's build (or another commit's) against the build of an earlier commit, on
// the bench's scenarios 1, 2 and 3 for Deadbolt alone, run in alternating pairs; writes
// results/compare.json and results/compare.md. Answers "did this change make Deadbolt slower?",
// which the bench's own run, comparing against the peers, cannot.
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startStandalone } from '@deadbolt/test-harness';
import type { Figures } from '../repetitions.js';
import { buildAt, commitOf, describeHead } from './buildAt.js';
import type { ComparedDriver } from './loadBuild.js';
import { comparedRows, renderComparison, type ComparedRuns } from './report.js';
import { COMPARED_SCENARIOS } from './scenarios.js';

const DRIVERS: readonly ComparedDriver[] = ['ioredis', 'node-redis'];
const repository = fileURLToPath(new URL('../../..', import.meta.url));
const results = new URL('../../results/', import.meta.url);

const USAGE = `usage: pnpm bench:compare <git ref> [--head REF] [--pairs N] [--scenario ID]... [--driver ${DRIVERS.join('|')}]
  --head      compare this commit's build, not this checkout's, against <git ref>
  --pairs     pairs of runs per scenario and driver, a whole number from 1 (default 10)
  --scenario  only this scenario, one of ${COMPARED_SCENARIOS.map((scenario) => scenario.id).join(', ')}; may be given again (default all)
  --driver    only this driver (default both)`;
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    pairs: { type: 'string', default: '10' },
    scenario: { type: 'string', multiple: true },
    driver: { type: 'string' },
    head: { type: 'string' },
  },
});
const baseRef = positionals[0];
const pairs = Number(values.pairs);
const named = values.scenario ?? COMPARED_SCENARIOS.map((scenario) => scenario.id);
const scenarios = COMPARED_SCENARIOS.filter((scenario) => named.includes(scenario.id));
const drivers = DRIVERS.filter((driver) => values.driver === undefined || values.driver === driver);
if (
  baseRef === undefined ||
  positionals.length > 1 ||
  !Number.isInteger(pairs) ||
  pairs < 1 ||
  scenarios.length !== named.length ||
  drivers.length === 0
) {
  console.error(USAGE);
  process.exit(2);
}

const baseCommit = commitOf(repository, baseRef);
const base = buildAt(repository, baseCommit);
const headRef = values.head ?? 'this checkout';
const headCommit = values.head === undefined ? describeHead(repository) : commitOf(repository, values.head);
const head = values.head === undefined ? repository : buildAt(repository, headCommit);
const server = await startStandalone();
const runs: ComparedRuns[] = [];
try {
  for (const scenario of scenarios) {
    for (const driver of drivers) {
      const figures: { base: Figures[]; head: Figures[] } = { base: [], head: [] };
      for (let pair = 0; pair < pairs; pair++) {
        const order = pair % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
        for (const build of order)
          figures[build].push(await scenario.run(build === 'base' ? base : head, driver, server.port, pair));
      }
      runs.push({ scenario, driver, ...figures });
      console.log(`  ${scenario.title} on ${driver}: ${pairs} pairs`);
    }
  }
} finally {
  await server.stop();
}

const cpu = os.cpus()[0];
const setting = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} × ${cpu?.model.trim() ?? 'cpu'}, Node ${process.version}`,
  baseRef,
  baseCommit,
  headRef,
  headCommit,
  pairs,
};
const rows = comparedRows(runs);
await writeFile(
  new URL('compare.json', results),
  `${JSON.stringify({ ...setting, rows, runs: runs.map(({ scenario, ...rest }) => ({ scenario: scenario.title, ...rest })) }, null, 2)}\n`,
);
await writeFile(new URL('compare.md', results), renderComparison(setting, rows));
console.log(renderComparison(setting, rows));
