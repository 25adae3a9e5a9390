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
  // Late copies (issue 30), see lateCopies.ts: a request let through, its reply swallowed and a
  // copy of it delivered later than twice commandTimeout on its old connection (every driver);
  // a request cut after Redis ran it, then the network down for longer than any record of it
  // lives (3 × commandTimeout), so that ioredis re-sends it after every record is gone.
  | 'request held and delivered late'
  | 'request cut, then partitioned past its records'
  // A Redisson peer (a Java process) that stops renewing while it holds locks, as one that died
  // or froze: its locks stay taken until their lease runs out (hammer-redisson).
  | 'Redisson peer stopped renewing'
  // Chaos (issue 32, src/chaos): a test host's link taken down, silently (no RST), and brought
  // back, or a group of hosts split off from the rest; a client process's clock jumped or run at another rate (libfaketime).
  | 'host isolated (link down)'
  // Hosts split off together (they reach each other, nobody else) while Sentinel fails over.
  | 'minority split off, Sentinel failover'
  | 'client wall clock jumped'
  | 'client clock at another rate'
  // The lock server's wall clock jumped forward past the lease (ServerClock): Redis expires keys by it.
  | 'lock server wall clock jumped forward';

/** A stretch during which the network to Redis was down for longer than a request's records live, in monotonic microseconds. */
export interface CutOff {
  readonly from: number;
  readonly to: number;
}

/** Copies of requests that reached Redis late: see lateCopies.ts. */
export interface LateCopyCounts {
  /** Copies the proxy delivered later than twice commandTimeout. */
  delivered: number;
  /** Of those, copies Redis refused as past their deadline. */
  refused: number;
  /** Copies the driver re-sent after a partition longer than the request's records. */
  resent: number;
}

/** What a test injected: how many of each fault, when processes were frozen, and the late copies that reached Redis. */
export class FaultLog {
  readonly counts: Partial<Record<FaultType, number>> = {};
  readonly pauses: ProcessPause[] = [];
  readonly cutOffs: CutOff[] = [];
  /**
   * When hosts were split off from the rest until the deployment was whole again (scenario 2: the
   * old master demoted). Not cut-offs: both sides reach a master meanwhile.
   */
  readonly splits: CutOff[] = [];
  readonly late: LateCopyCounts = { delivered: 0, refused: 0, resent: 0 };

  /** Counts one injected fault. */
  record(type: FaultType): void {
    this.counts[type] = (this.counts[type] ?? 0) + 1;
  }

  /** Keeps when a process was frozen, for the overlap check. */
  recordPause(pause: ProcessPause): void {
    this.pauses.push(pause);
  }

  /** Counts copies delivered late, and those Redis refused. */
  recordLateDelivery(delivery: { readonly delivered: number; readonly refused: number }): void {
    this.late.delivered += delivery.delivered;
    this.late.refused += delivery.refused;
  }

  /** Counts a long partition's re-sends, and keeps when the network was down. */
  recordLongCut(cut: { readonly resent: number; readonly from: number; readonly to: number }): void {
    this.late.resent += cut.resent;
    this.recordCutOff(cut);
  }

  /** Keeps when the network to Redis was down for longer than a request's records live. */
  recordCutOff(cut: CutOff): void {
    this.cutOffs.push({ from: cut.from, to: cut.to });
  }

  /** Keeps when hosts were split off from the rest, until the deployment was whole again. */
  recordSplit(split: CutOff): void {
    this.splits.push({ from: split.from, to: split.to });
  }

  /**
   * When the last cut-off or split ended (monotonic microseconds): what a host must be granted
   * after to have recovered. `-Infinity` when nothing was healed (a clock fault): any grant counts.
   */
  get lastHeal(): number {
    return Math.max(...[...this.cutOffs, ...this.splits].map((stretch) => stretch.to));
  }

  get total(): number {
    return Object.values(this.counts).reduce((sum, count) => sum + count, 0);
  }
}
