// The fenced lock as a kind of the shared conformance suite. It imports the built package, so that
// the suite's child processes (plain tsx, no Lua loader) can rebuild the same kind.
import type { LockKind } from '@deadbolt/conformance';
import { FencedLock } from '@deadbolt/fenced-lock';

/** `FencedLock`, for the conformance suite and the fenced-lock tests. */
export const fencedLock: LockKind = {
  name: 'FencedLock',
  create: (client, name) => new FencedLock(client, name),
  module: import.meta.url,
  exportName: 'fencedLock',
};
