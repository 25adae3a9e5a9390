// `pnpm demo`'s build: `lerna run build` in the current folder (extra arguments go to lerna), its
// output kept back. Nx caches each package's build (nx.json), so a second run restores the built
// packages in seconds; either way this prints one line, or, when the build fails, everything the
// build printed, and fails with its exit code.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const started = performance.now();
const build = spawn('pnpm', ['exec', 'lerna', 'run', 'build', ...process.argv.slice(2)], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
const output: Buffer[] = [];
build.stdout.on('data', (chunk: Buffer) => output.push(chunk));
build.stderr.on('data', (chunk: Buffer) => output.push(chunk));
build.on('close', (code, signal) => {
  const text = Buffer.concat(output).toString('utf8');
  if (code !== 0) {
    process.stderr.write(text);
    console.error(`build: failed (${signal ?? `exit code ${code}`})`);
    process.exitCode = code ?? 1;
    return;
  }
  // Nx's summary: the packages asked for, and how many of the builds run came from the cache.
  const fromCache = /for (\d+) out of (\d+) tasks?\./.exec(text);
  const asked = /Successfully ran target build for (?:(\d+) projects|project)/.exec(text)?.[1] ?? '1';
  const packages = fromCache?.[2] ?? asked;
  const cached = fromCache?.[1] ?? '0';
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `build: ${packages} package${packages === '1' ? '' : 's'} ready (${cached} from the cache) in ${seconds} s`,
  );
});
