import type { LockEvents } from '../client/LockEvents.js';

/**
 * What one acquisition tells the client's listeners: its wait, when the lock was held by someone
 * else at its first attempt (`waitStarted`, `waitEnded`), and its grant (`acquired`).
 */
export interface AcquisitionReport {
  /** An attempt found the lock held elsewhere: the wait starts (once). */
  busy(): void;
  /** The lock was taken; `passedLocally` when a local holder passed it. */
  taken(passedLocally: boolean): void;
  /** The wait time ran out. */
  timedOut(): void;
  /** The acquisition threw `error`: an abort of `signal`, or a failure. */
  failed(error: unknown, signal: AbortSignal | undefined): void;
}

/**
 * The report of an acquisition of lock `name` of kind `kind` by `owner`, starting now;
 * `undefined` when nobody listens to any of its events, so that an unheard acquisition pays nothing.
 */
export function acquisitionReport(
  events: LockEvents,
  name: string,
  kind: string,
  owner: string,
): AcquisitionReport | undefined {
  if (!events.listening('acquired') && !events.listening('waitStarted') && !events.listening('waitEnded'))
    return undefined;
  const calledAt = performance.now();
  const subject = { name, kind, owner };
  let waiting = false;
  const waitEnded = (outcome: 'taken' | 'timedOut' | 'aborted' | 'failed', error?: unknown) => {
    if (!waiting || !events.listening('waitEnded')) return;
    events.emit('waitEnded', {
      ...subject,
      waitedMs: performance.now() - calledAt,
      outcome,
      ...(error === undefined ? {} : { error }),
    });
  };
  const report: AcquisitionReport = {
    busy: () => {
      if (waiting) return;
      waiting = true;
      if (events.listening('waitStarted')) events.emit('waitStarted', subject);
    },
    taken: (passedLocally) => {
      waitEnded('taken');
      if (events.listening('acquired'))
        events.emit('acquired', { ...subject, waitedMs: performance.now() - calledAt, passedLocally });
    },
    timedOut: () => waitEnded('timedOut'),
    failed: (error, signal) => {
      // A first attempt that failed did not take the lock either: its wait starts and ends here,
      // so that every acquisition that did not take the lock at once has an outcome.
      if (!waiting) report.busy();
      waitEnded(signal?.aborted && error === signal.reason ? 'aborted' : 'failed', error);
    },
  };
  return report;
}
