import type { ChildJob } from '@deadbolt/conformance/connect';
import type { RoleName } from '@deadbolt/conformance/kinds';
import type { RedisAddress } from '@deadbolt/test-harness';

/** One lock a holder worker takes. */
export interface HolderSubjectJob {
  /** The id of its lock kind. */
  readonly kind: string;
  readonly role: RoleName;
  readonly lockName: string;
}

/** What the test process hands a holder worker. */
export interface HolderJob extends ChildJob {
  /** The fenced store a kind with fencing tokens writes to after it lost its lock. */
  readonly store: RedisAddress;
  readonly subjects: readonly HolderSubjectJob[];
}

/** The environment variable a holder worker reads its job from. */
export const HOLDER_JOB_VARIABLE = 'DEADBOLT_RELIABILITY_HOLDER_JOB';

/** What a holder worker learned about one of its holds after it was let go on. */
export interface HoldCheck {
  /** The `name` of the hold signal's abort reason; `null` when it never aborted. */
  readonly abortedWith: string | null;
  /** Its fenced write with the hold's token, for kinds with fencing tokens. */
  readonly fencedWrite: 'accepted' | 'rejected' | null;
  /** `released`, or the `name` of the error the release threw. */
  readonly release: string;
}

/** What a holder worker prints, one JSON line each. */
export type HolderEvent =
  /** It holds every lock of its job; `tokens` has each hold's fencing token (decimal) or `null`. */
  | { readonly event: 'holding'; readonly tokens: readonly (string | null)[] }
  /** On `check`: for each hold, in job order, what it found once its signal aborted (or 10 s passed). */
  | { readonly event: 'checked'; readonly holds: readonly HoldCheck[] };

/** The command that makes a holder worker check its holds. */
export const CHECK_COMMAND = 'check';
