import { packageBuild } from '../../tsup.shared';

// The library entry and the `deadbolt` bin; esbuild keeps the bin's shebang line.
export default packageBuild({ entry: ['src/index.ts', 'src/bin.ts'] });
