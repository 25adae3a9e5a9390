/** The injection token of the module's `OpenedLockClient`; internal to the package. */
export const DEADBOLT_CONNECTION = Symbol('@deadbolt/nestjs:connection');
