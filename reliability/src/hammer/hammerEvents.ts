import type { ChildJob, ConnectionSpec } from '@deadbolt/conformance/connect';
import type { RoleName } from '@deadbolt/conformance/kinds';
import type { StoreAddress } from '../store/ResourceStore.js';

/** One lock a hammer worker contends for, and how hard. */
export interface HammerSubjectJob {
  /** The id of its lock kind. */
  readonly kind: string;
  readonly role: RoleName;
  readonly lockName: string;
  /** Concurrent tasks in the worker, each with an owner of its own. */
  readonly tasks: number;
  /** Holds each task takes, one after the other. */
  readonly iterations: number;
}

/** What the test process hands a hammer worker. */
export interface HammerJob extends ChildJob {
  /**
   * The independent deployments after the first (`spec`), for kinds that span several (RedLock):
   * the worker connects one lock client to each.
   */
  readonly otherSpecs: readonly ConnectionSpec[];
  /** The store of the guarded resources (see `ResourceStore`). */
  readonly store: StoreAddress;
  readonly subjects: readonly HammerSubjectJob[];
  /** How long each hold works between its read and its write, in ms. */
  readonly workMs: number;
}

/** The environment variable a hammer worker reads its job from. */
export const HAMMER_JOB_VARIABLE = 'DEADBOLT_RELIABILITY_HAMMER_JOB';

/** The lock a hammer run labelled `label` takes of a kind: one slot per run, named by its kind. */
export function hammerLockName(label: string, kindId: string): string {
  return `{${label}}:${kindId}`;
}

/**
 * How a hold ended. `not-held`: the release found the lock no longer held by its owner.
 * `unknown`: a try of the release failed with Redis unreachable (it may have run: the holder is
 * told, its signal aborts), and a try after it found the lock no longer held, which is what the
 * first try, if it ran, left: the release may have gone as expected or not.
 */
export type ReleaseOutcome = 'released' | 'not-held' | 'unknown';

/**
 * What a hammer worker prints, one JSON line each. Times are monotonic microseconds
 * (`monotonicMicros`), comparable across processes.
 */
export type HammerEvent =
  | { readonly event: 'ready' }
  /** A task got the lock it asked for at `requested`: its hold starts now, `at`. */
  | {
      readonly event: 'acquired';
      readonly subject: number;
      readonly hold: string;
      readonly requested: number;
      readonly at: number;
    }
  /**
   * A hold's work ended at `end` and its release is about to be sent. `wrote`: its increment
   * landed in the store (exclusive roles only); `rejected`: the fenced store refused its token;
   * `lost`: its signal had aborted by `end`.
   */
  | {
      readonly event: 'worked';
      readonly hold: string;
      readonly end: number;
      readonly wrote: boolean;
      readonly rejected: boolean;
      readonly lost: boolean;
    }
  /** A hold's release went as `release` says; it ended at `at`. */
  | { readonly event: 'released'; readonly hold: string; readonly release: ReleaseOutcome; readonly at: number }
  /** A hold's signal aborted at `at`: its holder was told it may have lost its lock. */
  | { readonly event: 'aborted'; readonly hold: string; readonly at: number }
  /**
   * A typed error (a `LockError`) that the task retried: Redis was unreachable, say. The failed try
   * was called at `started` and failed at `at`.
   */
  | {
      readonly event: 'retried';
      readonly stage: 'acquire' | 'release';
      readonly error: string;
      readonly started: number;
      readonly at: number;
    }
  | { readonly event: 'done' }
  /** Something the suite does not allow (an untyped error): the worker exits with 1. */
  | { readonly event: 'failed'; readonly message: string };

/** The hold id of iteration `iteration` of a task; its owner is the id without the last part. */
export function holdId(pid: number, subject: number, task: number, iteration: number): string {
  return `${pid}.${subject}.${task}.${iteration}`;
}

/** The owner (process and task) of a hold id. */
export function ownerOfHold(hold: string): string {
  return hold.slice(0, hold.lastIndexOf('.'));
}
