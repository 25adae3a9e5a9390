// `pnpm run release:pack [folder]`: the packages as installable tarballs, for as long as they are
// not on the npm registry. Every publishable package is packed (checked as the release check
// checks it, scripts/packing.mts) into `folder`, `tarballs/` at the repository's root by default,
// replacing the tarballs an earlier run left there. An application installs the ones it uses
// with `npm install <path>.tgz …`, each together with the tarballs of the Deadbolt packages it
// depends on. The built packages must exist (`pnpm run build`).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { packAll, root } from './packing.mjs';

const log = (line: string) => console.log(`release-pack: ${line}`);

async function main(): Promise<void> {
  const folder = resolve(process.argv[2] ?? join(root, 'tarballs'));
  mkdirSync(folder, { recursive: true });
  for (const old of readdirSync(folder).filter((file) => /^deadbolt-.*\.tgz$/.test(file))) rmSync(join(folder, old));
  const tarballs = await packAll(root, folder, log);
  const tarball = (name: string) => tarballs.find((file) => relative(folder, file).startsWith(`deadbolt-${name}-`));
  log(`${tarballs.length} tarballs in ${folder}; with ioredis, for example:`);
  log(`  npm install ${tarball('core')} ${tarball('adapter-ioredis')} ioredis`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
