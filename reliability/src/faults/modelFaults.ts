// Late copies and cuts injected into a model-based run (issue 30): one of the run's two clients
// reaches Redis through the backend's fault proxies with a short commandTimeout, and an injected
// step runs one operation on it while the proxy holds a copy of its request for a late delivery
// or cuts it and partitions past its records (see lateCopies.ts). The model then checks that the
// request counted once, or not at all, however late its copies came.
import { sleep, type ProxyGroup } from '@deadbolt/test-harness';
import { LateCopy, PartitionedCut, SCRIPT_COMMANDS, type LateDelivery, type LongCut } from './lateCopies.js';

/** What an injected step does to its operation's request: `late`, a copy delivered late; `cut`, cut and partitioned past its records. */
export type InjectedFault = 'late' | 'cut';

/** Both faults, for the step generators. */
export const INJECTED_FAULTS: readonly InjectedFault[] = ['late', 'cut'];

/**
 * The proxied client's `commandTimeout` in the model runs: short, so that a copy is late and a
 * partition outlasts the records within a second or so, and long enough for a loaded machine's
 * replies through the proxy.
 */
export const FAULTY_COMMAND_TIMEOUT_MS = 250;

/** At most this many injected steps per run; later ones run their operation plainly: the runs stay short. */
export const MAX_FAULTS_PER_RUN = 2;

// How long a matching request may take to be held or cut once its operation ran: at once.
const FAULT_TIMEOUT_MS = 5_000;
// After an outcome the client did not learn, wait this much past commandTimeout before reading
// Redis: every copy of the request (a retry's too) is then past its deadline, so nothing changes
// any more, and what Redis shows is what the request did.
const SETTLE_MARGIN_MS = 150;

/** What one injected step came to. */
export interface Injection<T> {
  /** The operation's own outcome, as the caller saw it. */
  readonly outcome: PromiseSettledResult<T>;
  /** Whether its request was held or cut: `false` when the operation sent none (nothing to take). */
  readonly injected: boolean;
  readonly late?: LateDelivery;
  readonly cut?: LongCut;
}

/** What a run's injected steps did, added up. */
export interface InjectionCounts {
  late: number;
  cut: number;
  /** Copies delivered late, and those Redis refused as past their deadline. */
  delivered: number;
  refused: number;
  /** Copies of cut requests that reached the proxy after the partition. */
  resent: number;
}

/** The proxies the faulty client goes through, and its `commandTimeout`, as a model run gets them. */
export interface FaultyClient {
  readonly proxies: ProxyGroup;
  readonly commandTimeout: number;
  /** Whether the driver re-sends a cut request after reconnecting (ioredis). */
  readonly resends: boolean;
}

/** Injects the faults of one model run into requests that carry `marker` (the run's key name). */
export class FaultInjector {
  readonly counts: InjectionCounts = { late: 0, cut: 0, delivered: 0, refused: 0, resent: 0 };
  readonly #client: FaultyClient;
  readonly #marker: string;
  #injected = 0;

  constructor(client: FaultyClient, marker: string) {
    this.#client = client;
    this.#marker = marker;
  }

  /** Whether this run may inject one more fault. */
  get canInject(): boolean {
    return this.#injected < MAX_FAULTS_PER_RUN;
  }

  /** The proxied client's `commandTimeout`. */
  get commandTimeout(): number {
    return this.#client.commandTimeout;
  }

  /**
   * Runs `perform` (one operation on the proxied client) with `fault` armed for its first script
   * call on the run's key, and once it settled, finishes the fault: delivers the held copy later
   * than twice commandTimeout, or waits out the partition (and on ioredis the re-send). Resolves
   * with what the operation came to; the copies are all past their deadline by then.
   */
  async around<T>(fault: InjectedFault, perform: () => Promise<T>): Promise<Injection<T>> {
    const match = { marker: this.#marker, commands: SCRIPT_COMMANDS };
    const { proxies, commandTimeout, resends } = this.#client;
    await proxies.whenHealed();
    if (fault === 'late') {
      const copy = new LateCopy(proxies, match, commandTimeout);
      const [outcome] = await Promise.allSettled([perform()]);
      if (!copy.matched) {
        copy.cancel();
        return { outcome, injected: false };
      }
      const late = await copy.deliverLate(FAULT_TIMEOUT_MS);
      this.#injected++;
      this.counts.late++;
      this.counts.delivered += late.delivered;
      this.counts.refused += late.refused;
      return { outcome, injected: true, late };
    }
    const partitioned = new PartitionedCut(proxies, match, commandTimeout);
    const [outcome] = await Promise.allSettled([perform()]);
    if (!partitioned.matched) {
      partitioned.cancel();
      return { outcome, injected: false };
    }
    const cut = await partitioned.healed(resends, FAULT_TIMEOUT_MS);
    this.#injected++;
    this.counts.cut++;
    this.counts.resent += cut.resent;
    return { outcome, injected: true, cut };
  }

  /** Waits until every copy of a request whose outcome the client did not learn is past its deadline. */
  settle(): Promise<void> {
    return sleep(this.#client.commandTimeout + SETTLE_MARGIN_MS);
  }
}

/** Adds a run's counts to `total`. */
export function addInjections(total: InjectionCounts, counts: InjectionCounts): void {
  total.late += counts.late;
  total.cut += counts.cut;
  total.delivered += counts.delivered;
  total.refused += counts.refused;
  total.resent += counts.resent;
}
