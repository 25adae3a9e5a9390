import {
  decodeNilOrTtl,
  defineCommand,
  holdMarkersKey,
  requestRecordKey,
  UNLOCK_MESSAGE,
  type AcquireReply,
} from '@deadbolt/core/kit';
import { fairScripts } from '../fairScripts.js';
import { queueKeys, type FairLockInput } from './fairInputs.js';

/** The input of {@link fairAcquire}. */
export interface FairAcquireInput extends FairLockInput {
  /** The owner field, `<clientId>:<ownerId>`. */
  readonly field: string;
  /** This attempt's hold id. */
  readonly hold: string;
  /** The lease in milliseconds. */
  readonly lease: number;
  /**
   * The waiter's allowance in milliseconds: its deadline is the one of the waiter ahead plus this;
   * 0 for a no-wait attempt, which never joins the queue.
   */
  readonly allowance: number;
}

/**
 * Takes a fair lock in arrival order, re-enters it, or queues the caller (`acquire.lua`), once per
 * attempt and never past its deadline. When it is not taken, `ttl` is how long to sleep before
 * the next attempt unless woken first.
 */
export const fairAcquire = defineCommand<FairAcquireInput, AcquireReply<null>>({
  script: fairScripts.acquire,
  keys: ({ keys, hold }) => [...queueKeys(keys), holdMarkersKey(keys.lock), requestRecordKey(keys.lock, hold)],
  args: ({ lease, field, allowance, waiterTimeout, hold }, { now, publish, deadline }) => [
    lease,
    field,
    allowance,
    now,
    waiterTimeout,
    publish,
    UNLOCK_MESSAGE,
    hold,
    deadline,
  ],
  decode: decodeNilOrTtl,
});
