// The overlap and lost-update check for the kinds with fencing tokens, with holders frozen past
// their lease (SIGSTOP for 1.6 s over a 1 s lease) while their subscriber connections are killed:
// holds do overlap there, and the fenced store must refuse every stale holder's writes, so that
// no update is lost. Only kinds with fencing tokens can make that harmless, so only they run it.
import { killWorkerSubscribers, pauseHolder } from '../src/faults/hammerFaults.js';
import { describeHammer } from '../src/hammer/describeHammer.js';
import { FENCED_SHAPE, LONG_PAUSE_MS } from '../src/hammer/hammerShape.js';
import { subjectsOn } from '../src/kinds.js';

const pastLease = pauseHolder(LONG_PAUSE_MS, 'holder process SIGSTOP past lease');

for (const topology of ['standalone', 'cluster'] as const) {
  describeHammer(import.meta.url, {
    title: 'holders frozen past their lease overlap the next, and fencing refuses their stale writes',
    topology,
    backendOptions: {},
    subjects: subjectsOn(topology).filter(({ kind }) => kind.token !== undefined),
    shape: FENCED_SHAPE,
    faults: [pastLease, killWorkerSubscribers, pastLease],
  });
}
