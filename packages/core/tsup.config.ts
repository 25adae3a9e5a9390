import { packageBuild } from '../../tsup.shared';

// Two entries sharing one copy of every module (split chunks in both formats): a lock made
// through one entry must meet the owner scope, registries and classes of the other.
export default packageBuild({ entry: ['src/index.ts', 'src/kit.ts'], splitting: true });
