import type { ChildJob } from '@deadbolt/conformance/connect';

/** What the test process hands a permit-hammer worker. */
export interface PermitJob extends ChildJob {
  /** The id of its semaphore kind (see `PERMIT_KINDS`). */
  readonly kind: string;
  /** The semaphore's name; the test process set its permits before the workers started. */
  readonly name: string;
  /** Concurrent tasks in the worker. */
  readonly tasks: number;
  /** Grants each task takes and gives back, one after the other. */
  readonly holdsPerTask: number;
  /** The most permits one acquisition asks for; each asks for 1 to this many, by turns. */
  readonly maxPermits: number;
  /** How long each grant is held, in ms. */
  readonly workMs: number;
  /** Leased kinds only: which grants take a fixed lease instead of the watchdog's (see {@link FixedLeasePlan}). */
  readonly fixedLease?: FixedLeasePlan;
}

/**
 * Which grants of a leased kind take a fixed `leaseMs` lease: every `every`-th attempt of a task.
 * Every other one of those holds on until its holder is told the lease ended (its signal
 * aborts), then gives back what is left: nothing, the permits came back by themselves.
 */
export interface FixedLeasePlan {
  readonly every: number;
  readonly leaseMs: number;
}

/** The environment variable a permit-hammer worker reads its job from. */
export const PERMIT_JOB_VARIABLE = 'DEADBOLT_RELIABILITY_PERMIT_JOB';

/**
 * What a permit-hammer worker prints, one JSON line each, in the order things happen: each line
 * is written (synchronously, to a pipe) before the request it announces is sent. Times are
 * monotonic microseconds (`monotonicMicros`), comparable across processes. `hold` names one
 * acquisition attempt: `<pid>.<task>.<attempt>`.
 */
export type PermitEvent =
  | { readonly event: 'ready' }
  /** An acquisition of `permits` is about to be asked for, at `at`, with a fixed lease of `leaseMs` if present. */
  | {
      readonly event: 'asking';
      readonly hold: string;
      readonly permits: number;
      readonly at: number;
      readonly leaseMs?: number;
    }
  /** It took them: the grant's interval starts now, `at`. */
  | { readonly event: 'acquired'; readonly hold: string; readonly at: number }
  /**
   * It failed with the typed error `error`: a wait that ran out took nothing; `unknown` when Redis
   * was unreachable, so the request may or may not have taken the permits.
   */
  | { readonly event: 'missed'; readonly hold: string; readonly error: string; readonly unknown: boolean }
  /** The grant's permits are about to be given back: its interval ends now, `at`. */
  | { readonly event: 'releasing'; readonly hold: string; readonly at: number }
  /**
   * The release came back; `unknown` when it failed with Redis unreachable (a leased kind's is not
   * sent again, a Semaphore's is, until it comes back), or, a Semaphore's, when it found the
   * permits' mark gone (`notHeld`: an earlier try may have given them back); `lapsed` (leased
   * kinds) when some of the permits were no longer held: their lease had ended.
   */
  | {
      readonly event: 'released';
      readonly hold: string;
      readonly unknown: boolean;
      readonly lapsed?: boolean;
      readonly notHeld?: boolean;
    }
  /** Leased kinds: the grant's signal aborted at `at` (its holder was told the permits are lost), with `reason`, the error's name. */
  | { readonly event: 'told'; readonly hold: string; readonly at: number; readonly reason: string }
  /**
   * Every task stopped after `freeze`: holding what it held, or between grants (a wait in progress
   * was aborted and took nothing). No request is in flight: killed now, it keeps exactly what its
   * events say it holds.
   */
  | { readonly event: 'frozen' }
  | { readonly event: 'done' }
  /**
   * Still running a while after `done`, its client closed: `resources` (Node's
   * `getActiveResourcesInfo()`) is what kept it alive. It exits right after.
   */
  | { readonly event: 'lingered'; readonly resources: readonly string[] }
  /** Something the suite does not allow (an untyped error): the worker exits with 1. */
  | { readonly event: 'failed'; readonly message: string };
