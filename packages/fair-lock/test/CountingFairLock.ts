import { LockBase, type LockClient } from '@deadbolt/core';
import { FairLock, fairLockKind } from '@deadbolt/fair-lock';

/**
 * A fair lock whose kind counts its acquisition attempts: per owner field as each is sent
 * (`sent`), and in all once each has run (`ran`, when its reply is decoded). The count sits in the
 * kind's `acquire`, the seam every attempt goes through.
 */
export class CountingFairLock extends LockBase {
  readonly sent: Map<string, number>;
  readonly #ran: { count: number };

  constructor(client: LockClient, name: string) {
    const sent = new Map<string, number>();
    const ran = { count: 0 };
    super(client, name, (checked) => {
      const fair = new FairLock(client, checked);
      const kind = fairLockKind(fair.keys, fair.waiterTimeout);
      return {
        ...kind,
        acquire: (attempt) => {
          sent.set(attempt.field, (sent.get(attempt.field) ?? 0) + 1);
          const acquire = kind.acquire(attempt);
          return {
            ...acquire,
            decode: (reply) => {
              const decoded = acquire.decode(reply);
              ran.count++;
              return decoded;
            },
          };
        },
      };
    });
    this.sent = sent;
    this.#ran = ran;
  }

  /** How many attempts have run. */
  get ran(): number {
    return this.#ran.count;
  }
}
