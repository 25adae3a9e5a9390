import { packageBuild } from '../../tsup.shared';

// Two entries sharing one copy of every module (split chunks in both formats): a server started
// through one entry must be in the registry the other's exit hooks and reaping read.
// testcontainers is imported lazily, only when there is no redis-server binary, from the
// application's own dependencies if it wants containers.
export default packageBuild({
  entry: ['src/index.ts', 'src/servers.ts'],
  splitting: true,
  external: ['testcontainers', '@testcontainers/redis'],
});
