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
  | 'redlock node restarted empty'
  // Through the harness's fault proxies (hammer-proxy): a request let through to Redis, its reply
  // swallowed and the connection dropped, so the driver re-sends it (ioredis) or fails it
  // (node-redis); the network to Redis down for a while; every connection to Redis dropped at once.
  | 'request cut after Redis ran it'
  | 'proxy partition'
  | 'proxy connections reset'
  // A Redisson peer (a Java process) that stops renewing while it holds locks, as one that died
  // or froze: its locks stay taken until their lease runs out (hammer-redisson).
  | 'Redisson peer stopped renewing';

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
