// Packing the publishable packages into tarballs, as `pnpm publish` would, and checking what each
// tarball holds: its README, its licence (the repository's), its ESM, CommonJS and type entry
// points, and no relative link in any file, since a tarball holds none of the files such a link
// would point to. Shared by `pnpm run release:check` and `pnpm run release:pack`.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { relativeLinks } from './markdownLinks.mjs';

/** The repository's root folder. */
export const root = fileURLToPath(new URL('..', import.meta.url));

const execute = promisify(execFile);

/** What the scripts read of a package.json. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  devDependencies?: Record<string, string>;
}

/** Runs a command, resolving with its stdout; rejects with its stdout and stderr in the message. */
export async function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  try {
    const { stdout } = await execute(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed:\n${stdout}${stderr}`, { cause: error });
  }
}

/** The package.json of the package in `dir`. */
export const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The packages under `base`/packages that are published (not private). */
export function publishablePackages(base: string): { dir: string; manifest: Manifest }[] {
  return readdirSync(join(base, 'packages'))
    .map((name) => join(base, 'packages', name))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: readManifest(dir) }))
    .filter(({ manifest }) => !manifest.private);
}

const REQUIRED = ['README.md', 'LICENSE', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts'];

const commentsOf = (code: string) => (code.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []).join('\n');

/**
 * What a reader of a packed file sees as prose, where a link may be: all of a markdown or text
 * file, the comments of code (TSDoc, which editors render), and the comments of the sources a
 * source map carries. Code itself is not read: `[key](arg)` is a call there, not a link.
 */
function proseOf(path: string, text: string): string {
  if (path.endsWith('.map')) {
    const { sourcesContent = [] } = JSON.parse(text) as { sourcesContent?: (string | null)[] };
    return sourcesContent.map((source) => commentsOf(source ?? '')).join('\n');
  }
  if (/\.[cm]?[jt]s$/.test(path)) return commentsOf(text);
  if (path.endsWith('.json')) return '';
  return text;
}

/** What is wrong with the files of an unpacked tarball (its `package/` folder): a licence not the repository's, relative links. */
function tarballProblems(unpacked: string, files: readonly string[]): string[] {
  const license = readFileSync(join(root, 'LICENSE'), 'utf8');
  const problems =
    readFileSync(join(unpacked, 'LICENSE'), 'utf8') === license ? [] : ['LICENSE is not the repository’s'];
  for (const file of files) {
    const links = relativeLinks(proseOf(file, readFileSync(join(unpacked, file), 'utf8')));
    problems.push(
      ...links.map(({ target }) => `${file} has a relative link, ${target}: nothing it could point to is packed`),
    );
  }
  return problems;
}

/**
 * Packs the package in `dir` into `destination` with `pnpm pack` (so `workspace:` ranges become
 * versions, as `pnpm publish` does) and checks the tarball; resolves with the tarball's path.
 * The package must be built.
 */
export async function pack(dir: string, destination: string): Promise<string> {
  const { name } = readManifest(dir);
  if (!existsSync(join(dir, 'dist'))) throw new Error(`${name} is not built: run \`pnpm run build\` first`);
  const packed = JSON.parse(await run('pnpm', ['pack', '--json', '--pack-destination', destination], dir)) as {
    filename: string;
    files: { path: string }[];
  };
  const files = packed.files.map((file) => file.path);
  const absent = REQUIRED.filter((file) => !files.includes(file));
  if (absent.length > 0) throw new Error(`the ${name} tarball lacks ${absent.join(', ')}`);
  const unpacked = mkdtempSync(join(tmpdir(), 'deadbolt-tarball-'));
  try {
    await run('tar', ['-xzf', packed.filename, '-C', unpacked], destination);
    const problems = tarballProblems(join(unpacked, 'package'), files);
    if (problems.length > 0) throw new Error(`the ${name} tarball:\n  ${problems.join('\n  ')}`);
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  return packed.filename;
}

/**
 * Packs every publishable package under `base` into `destination`, logging each; resolves with the
 * tarballs' paths, or rejects naming every package whose tarball failed its checks.
 */
export async function packAll(base: string, destination: string, log: (line: string) => void): Promise<string[]> {
  const results = await Promise.allSettled(
    publishablePackages(base).map(async ({ dir }) => {
      const tarball = await pack(dir, destination);
      log(`packed ${relative(destination, tarball)}`);
      return tarball;
    }),
  );
  const failures = results.flatMap((result) =>
    result.status === 'rejected'
      ? [result.reason instanceof Error ? result.reason.message : String(result.reason)]
      : [],
  );
  if (failures.length > 0) throw new Error(failures.join('\n'));
  return results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
}
