import { packageBuild } from '../../tsup.shared';

// Three entries sharing one copy of every module (split chunks in both formats): a lock made
// through one entry must meet the owner scope, registries and classes of the others.
export default packageBuild({ entry: ['src/index.ts', 'src/kit.ts', 'src/adapter.ts'], splitting: true });
