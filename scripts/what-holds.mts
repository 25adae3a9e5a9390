// Writes docs/guides/what-holds-under-faults.md from reliability/results/chaos.json (see
// scripts/what-holds-page.mts). `pnpm chaos` runs it after the chaos scenarios; run it alone with
// `pnpm run docs:what-holds` after merging chaos results.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHAOS_RESULTS, renderWhatHolds, WHAT_HOLDS_GUIDE, type ChaosResultsJson } from './what-holds-page.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = JSON.parse(readFileSync(join(root, CHAOS_RESULTS), 'utf8')) as ChaosResultsJson;
writeFileSync(join(root, WHAT_HOLDS_GUIDE), renderWhatHolds(results));
console.log(`what-holds: ${WHAT_HOLDS_GUIDE} from ${CHAOS_RESULTS}, ${results.runs.length} runs`);
