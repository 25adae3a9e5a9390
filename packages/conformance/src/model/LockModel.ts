import { HoldRecord, identityKey, type OwnerIdentity } from './HoldRecord.js';
import { conflicts, type Half } from './ModelKind.js';
import type { ModelTiming } from './timing.js';

/** What the holds of others mean for an acquisition: those certainly still held, and those that may have ended. */
export interface Blockers {
  readonly certain: readonly HoldRecord[];
  readonly uncertain: readonly HoldRecord[];
}

/**
 * The reference model of one lock name in one run: every hold taken, whom it belongs to, and
 * which of them Redis counts. Time enters only through leases: a hold whose lease may have ended
 * by a given instant (within the tolerance) may or may not be counted any more, and outcomes and
 * snapshots decide which.
 */
export class LockModel {
  readonly holds: HoldRecord[] = [];
  readonly timing: ModelTiming;
  /** Owner ids seen on each client, generated or named: a generated id must be none of them. */
  readonly #seen = new Map<number, Set<string>>();

  constructor(timing: ModelTiming) {
    this.timing = timing;
  }

  /** How long after the model learns a watchdog hold's lock is gone its signal may still be unaborted. */
  get renewalGrace(): number {
    return this.timing.watchdogTimeout / 3 + this.timing.signalSlack;
  }

  /** Records that `owner` was used on `client`; returns whether it had been seen there before. */
  see(client: number, owner: string): boolean {
    let seen = this.#seen.get(client);
    if (!seen) this.#seen.set(client, (seen = new Set()));
    const before = seen.has(owner);
    seen.add(owner);
    return before;
  }

  /** Adds a hold the library granted. */
  add(init: Omit<ConstructorParameters<typeof HoldRecord>[0], 'index' | 'signalSlack'>): HoldRecord {
    const record = new HoldRecord({ ...init, index: this.holds.length, signalSlack: this.timing.signalSlack });
    this.holds.push(record);
    return record;
  }

  /** The hold a step's index names, or `undefined` when there is none yet. */
  hold(index: number): HoldRecord | undefined {
    return this.holds.length === 0 ? undefined : this.holds[index % this.holds.length];
  }

  /** Holds Redis counts, by field, in acquisition order. */
  countedByField(): Map<string, HoldRecord[]> {
    const fields = new Map<string, HoldRecord[]>();
    for (const hold of this.holds) {
      if (!hold.counted) continue;
      const list = fields.get(hold.field) ?? [];
      list.push(hold);
      fields.set(hold.field, list);
    }
    return fields;
  }

  /** Counted holds of `identity` in `half`. */
  countedOf(identity: OwnerIdentity, half: Half): HoldRecord[] {
    const key = identityKey(identity);
    return this.holds.filter((hold) => hold.counted && hold.half === half && identityKey(hold.identity) === key);
  }

  /** Whether `hold` is certainly still counted in Redis at `at`: a live hold whose belief reaches past it. */
  certainAt(hold: HoldRecord, at: number): boolean {
    return hold.aliveUntil > at + this.timing.tolerance;
  }

  /**
   * The counted holds of other owners that keep `identity` (`undefined`: a fresh owner) out of
   * `half`, split into those certainly counted until `at` and those that may have ended by then.
   * A field counts as certain while any of its holds is.
   */
  blockers(identity: OwnerIdentity | undefined, half: Half, at: number): Blockers {
    const key = identity && identityKey(identity);
    const others = this.holds.filter(
      (hold) => hold.counted && conflicts(half, hold.half) && identityKey(hold.identity) !== key,
    );
    const certainFields = new Set(others.filter((hold) => this.certainAt(hold, at)).map((hold) => hold.field));
    return {
      certain: others.filter((hold) => certainFields.has(hold.field)),
      uncertain: others.filter((hold) => !certainFields.has(hold.field)),
    };
  }

  /** Whether the holds of a field (in acquisition order) could all have ended before `at`. */
  couldAllBeGone(holds: readonly HoldRecord[], at: number): boolean {
    return holds.every((hold) => hold.aliveUntil <= at + this.timing.tolerance);
  }

  /** Hold counts a query at `at` may see for `field`: the counted holds, less any prefix that may have expired. */
  possibleCounts(field: string, at: number): Set<number> {
    const holds = this.countedByField().get(field) ?? [];
    const counts = new Set<number>([holds.length]);
    for (let k = 1; k <= holds.length; k++)
      if (this.couldAllBeGone(holds.slice(0, k), at)) counts.add(holds.length - k);
    return counts;
  }

  /** Marks `holds` lost at `at` (expired or taken over while they may have ended). */
  lose(holds: readonly HoldRecord[], at: number): void {
    for (const hold of holds) hold.lost(at, this.renewalGrace);
  }

  /** Whether some hold of the run with this generated owner id stands (not released, signal not aborted). */
  ownerInUse(owner: string): boolean {
    return this.holds.some(
      (hold) => hold.identity.generated && hold.identity.owner === owner && !hold.released && !hold.held.signal.aborted,
    );
  }
}
