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

/** The input of an extend: a hold, its new lease, and the extend's own request id. */
export interface ExtendInput extends LeasedHoldInput {
  /**
   * This extend's request id, `<instance>:<n>` from the same counter as hold ids: a later extend
   * of the hold has a higher `n`, so an earlier one that arrives after it changes nothing.
   */
  readonly request: string;
}

/** The input of a force-release: the lock, the request's id, and the lock hash as read. */
export interface ForceReleaseInput extends LockInput {
  /** This request's id, `<instance>:<n>`: its record makes a copy answer the first outcome. */
  readonly request: string;
  /**
   * The lock hash (field -> value) as read when the operator asked: the lock is deleted only while
   * it still is exactly that.
   */
  readonly holders: Readonly<Record<string, string>>;
}
