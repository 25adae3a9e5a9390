import type { ProcessPause } from '../hammer/overlaps.js';

/** The faults the suite injects, as the results name them. */
export type FaultType =
  | 'holder process SIGKILL'
  | 'holder process SIGSTOP past lease'
  | 'process SIGSTOP within lease'
  | 'subscriber CLIENT KILL'
  | 'publish lost'
  | 'redis restart empty'
  | 'redis restart with data'
  | 'cluster manual failover'
  | 'cluster master killed'
  | 'redlock minority of nodes killed'
  | 'redlock majority of nodes killed'
  | 'redlock node restarted empty';

/** What a test injected: how many of each fault, and when processes were frozen. */
export class FaultLog {
  readonly counts: Partial<Record<FaultType, number>> = {};
  readonly pauses: ProcessPause[] = [];

  /** Counts one injected fault. */
  record(type: FaultType): void {
    this.counts[type] = (this.counts[type] ?? 0) + 1;
  }

  /** Keeps when a process was frozen, for the overlap check. */
  recordPause(pause: ProcessPause): void {
    this.pauses.push(pause);
  }

  get total(): number {
    return Object.values(this.counts).reduce((sum, count) => sum + count, 0);
  }
}
