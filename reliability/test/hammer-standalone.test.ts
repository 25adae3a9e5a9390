// Overlap and lost-update check on a standalone server: 8 worker processes × 3 tasks per lock
// hammer one lock of each kind while their subscriber connections are killed, workers are frozen
// within their lease and killed mid-hold, and the server is SIGKILLed and restarted from its
// append-only file.
import { killHolder, killWorkerSubscribers, pauseHolder, restartServerWithData } from '../src/faults/hammerFaults.js';
import { describeHammer } from '../src/hammer/describeHammer.js';
import { HAMMER_ON, SHORT_PAUSE_MS } from '../src/hammer/hammerShape.js';
import { subjectsOn } from '../src/kinds.js';

const freeze = pauseHolder(SHORT_PAUSE_MS, 'process SIGSTOP within lease');

describeHammer(import.meta.url, {
  title: 'no two owners hold a lock at once and no update is lost through process, connection and server faults',
  ...HAMMER_ON.standalone,
  subjects: subjectsOn('standalone'),
  faults: [killWorkerSubscribers, freeze, restartServerWithData, killHolder, freeze, killWorkerSubscribers],
});
