import packageJson from '../package.json' with { type: 'json' };

/** The instrumentation scope of the meter and the tracer. */
export const INSTRUMENTATION_SCOPE = '@deadbolt/opentelemetry';

/** This package's version, the version of the meter and the tracer: the build inlines it from package.json. */
export const INSTRUMENTATION_VERSION: string = packageJson.version;
