/** The inputs every command about one hold names: the lock, the owner field and the hold id. */
export interface HoldInput {
  /** The lock's name: the Redis key of its hash. */
  readonly name: string;
  /** The hold field, `<clientId>:<ownerId>` (a kind may add a suffix, as a read-write lock's writer). */
  readonly field: string;
  /** The hold id, `<instance>:<n>`, of the acquisition that took the hold. */
  readonly hold: string;
}

/** The inputs of an acquire or extend: a hold and its lease. */
export interface LeasedHoldInput extends HoldInput {
  /** The lease in milliseconds. */
  readonly lease: number;
}

/** The input of a command about the whole lock. */
export interface LockInput {
  /** The lock's name: the Redis key of its hash. */
  readonly name: string;
}

/** One owner's hold, named by its owner field and hold id. */
export interface OwnerHold {
  /** The owner field, `<clientId>:<ownerId>`. */
  readonly field: string;
  /** The hold id, `<instance>:<n>`. */
  readonly hold: string;
}

/** The input of a local hand-off: the hold being released, and the waiter the lock passes to. */
export interface HandOffInput extends LockInput {
  /** The releasing hold. */
  readonly from: OwnerHold;
  /** The receiver, with the hold id its new hold gets. */
  readonly to: OwnerHold;
  /** The receiver's lease in milliseconds. */
  readonly lease: number;
}
