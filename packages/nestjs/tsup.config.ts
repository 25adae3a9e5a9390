import { packageBuild } from '../../tsup.shared';

export default packageBuild({
  // The CommonJS build loads the optional ioredis peers with `require`: an `import()` there fails
  // under jest, whose module sandbox has no dynamic import without --experimental-vm-modules.
  esbuildOptions(options, { format }) {
    if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
  },
});
