// The fair lock as a kind of the shared conformance suite. It imports the built package, so that
// the suite's child processes (plain tsx, no Lua loader) can rebuild the same kind.
import type { LockKind } from '@deadbolt/conformance';
import { FairLock } from '@deadbolt/fair-lock';

/** `FairLock` with default options, for the conformance suite and the fair-lock tests. */
export const fairLock: LockKind = {
  name: 'FairLock',
  create: (client, name) => new FairLock(client, name),
  module: import.meta.url,
  exportName: 'fairLock',
  waiterChannels: 'own',
};
