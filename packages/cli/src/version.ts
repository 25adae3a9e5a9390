import packageJson from '../package.json' with { type: 'json' };

/** This package's version, as published: the build inlines it from package.json. */
export const VERSION: string = packageJson.version;
