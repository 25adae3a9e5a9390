// `pnpm bench`: runs every scenario on a redis-server of its own (or REDIS_URL), for each
// adapter, and writes results/latest.json and results/latest.md. `--smoke` runs a tiny version
// (seconds) to keep the harness working in CI.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { AdapterName, ConnectionSpec } from '@deadbolt/conformance/connect';
import { useStandalone } from '@deadbolt/test-harness';
import { renderMarkdown, type BenchResults } from './report.js';
import { handoff, type HandoffKind } from './scenarios/handoff.js';
import { readWrite } from './scenarios/readWrite.js';
import { uncontended } from './scenarios/uncontended.js';
import { round } from './stats.js';

const smoke = process.argv.includes('--smoke');
const size = smoke ? { cycles: 200, acquisitions: 40 } : { cycles: 5_000, acquisitions: 500 };
const adapters: AdapterName[] = ['ioredis', 'node-redis'];

const server = await useStandalone();
const results: BenchResults = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  smoke,
  scenarios: [],
};
try {
  for (const adapter of adapters) {
    const spec: ConnectionSpec = { adapter, topology: 'standalone', nodes: [{ host: server.host, port: server.port }] };
    console.log(`[${adapter}] uncontended lock + unlock`);
    results.scenarios.push({ scenario: 'uncontended', adapter, figures: await uncontended(spec, size.cycles) });
    console.log(`[${adapter}] read-write lock: 64 readers vs 1, and a writer under read load`);
    results.scenarios.push({ scenario: 'read-write', adapter, figures: await readWrite(spec, smoke) });
    for (const tasks of [2, 32]) {
      const waiters = 4 * tasks;
      const run = (kind: HandoffKind) => {
        console.log(`[${adapter}] contended handoff of ${kind}, 4 processes x ${tasks} tasks`);
        return handoff(spec, { kind, processes: 4, tasks, acquisitionsPerProcess: size.acquisitions });
      };
      const plain = await run('Lock');
      const fair = await run('FairLock');
      results.scenarios.push(
        { scenario: `handoff (${waiters} waiters)`, adapter, figures: plain },
        { scenario: `fair handoff (${waiters} waiters)`, adapter, figures: fair },
        {
          scenario: `fair vs plain (${waiters} waiters)`,
          adapter,
          figures: {
            handoffP50Ratio: round(fair.handoffP50Ms / plain.handoffP50Ms),
            acquisitionsPerSecondRatio: round(fair.acquisitionsPerSecond / plain.acquisitionsPerSecond),
            roundTripsPerAcquisitionRatio: round(fair.roundTripsPerAcquisition / plain.roundTripsPerAcquisition),
            outOfOrderGrantsPlain: plain.outOfOrderGrants,
            outOfOrderGrantsFair: fair.outOfOrderGrants,
          },
        },
      );
    }
  }
} finally {
  await server.stop();
}

const markdown = renderMarkdown(results);
console.log(`\n${markdown}`);
if (!smoke) {
  const dir = new URL('../results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('latest.json', dir), `${JSON.stringify(results, null, 2)}\n`);
  await writeFile(new URL('latest.md', dir), markdown);
}
