import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ConnectionSpec } from '../backends/index.js';
import type { LockSubject, SingleLockKind } from '../kinds/index.js';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx');
const script = fileURLToPath(new URL('./contender.ts', import.meta.url));

/** Runs `processes` contender processes against one lock and resolves their completed holds. */
export async function runContenders(options: {
  spec: ConnectionSpec;
  subject: LockSubject<SingleLockKind>;
  lockName: string;
  counterKey: string;
  processes: number;
  tasks: number;
  iterations: number;
}): Promise<number[]> {
  const { processes, subject, ...rest } = options;
  const job = JSON.stringify({ ...rest, kindId: subject.kind.id, role: subject.role.name });
  return Promise.all(Array.from({ length: processes }, () => runOne(job)));
}

function runOne(job: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, script], {
      env: { ...process.env, DEADBOLT_CONTENDER_JOB: job },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`contender exited with ${code}: ${err}`));
      const holds = reportedHolds(out);
      if (holds === undefined) return reject(new Error(`contender reported no holds; its output: ${out}`));
      resolve(holds);
    });
  });
}

// The contender's report is its line `{"holds":n}`. A driver may write lines of its own to stdout
// (GLIDE's core logs warnings with a timestamp, once after the report, in CI), so the report is
// looked for rather than taken from the last line.
function reportedHolds(out: string): number | undefined {
  for (const line of out.split('\n').reverse()) {
    if (!line.startsWith('{')) continue;
    try {
      const { holds } = JSON.parse(line) as { holds?: unknown };
      if (typeof holds === 'number') return holds;
    } catch {
      // Not the report: a driver's line that happens to start with a brace.
    }
  }
  return undefined;
}
