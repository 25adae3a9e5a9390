// pnpm hooks for the workspace (engine-strict is on in .npmrc).
//
// redlock-universal, a peer the benchmarks (bench/) compare with, declares `engines.node >=22`
// for every published version, while the workspace runs on Node 20. It runs on Node 20 as it is
// (bench/ exercises it in its smoke run), so only its declared engine range is relaxed here.
module.exports = {
  hooks: {
    readPackage(manifest) {
      if (manifest.name === 'redlock-universal' && manifest.engines) {
        manifest.engines = { ...manifest.engines, node: '>=20' };
      }
      return manifest;
    },
  },
};
