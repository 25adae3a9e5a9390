import { hashSlot } from '../keys/hashSlot.js';

// Slots in a Redis Cluster: a cluster loads scripts per node, and a slot names its node.
const SLOTS = 16_384;

/**
 * Which scripts the server is known to hold, per route: the server for a standalone executor, the
 * key's slot in a cluster (a script is loaded per node). A script's first call on a route is sent
 * in full (EVAL, which loads it) rather than by digest, so that calls made together reach Redis in
 * the order they were made: had the first ones been refused with NOSCRIPT and sent again, later
 * calls that found the script loaded would overtake them — and a fair lock's queue order is the
 * order its waiters' first attempts arrive in.
 */
export class LoadedScripts {
  readonly #isCluster: boolean;
  // Standalone: the digests known loaded. Cluster: per digest, one bit per slot.
  readonly #standalone = new Set<string>();
  readonly #bySlot = new Map<string, Uint8Array>();

  constructor(isCluster: boolean) {
    this.#isCluster = isCluster;
  }

  /** Whether `sha` is known loaded where a call with first key `key` runs. */
  has(sha: string, key: string | undefined): boolean {
    if (!this.#isCluster) return this.#standalone.has(sha);
    const slot = hashSlot(key ?? '');
    return ((this.#bySlot.get(sha)?.[slot >> 3] ?? 0) & (1 << (slot & 7))) !== 0;
  }

  /** Records whether `sha` is loaded where a call with first key `key` runs. */
  set(sha: string, key: string | undefined, loaded: boolean): void {
    if (!this.#isCluster) {
      if (loaded) this.#standalone.add(sha);
      else this.#standalone.delete(sha);
      return;
    }
    const slot = hashSlot(key ?? '');
    let bits = this.#bySlot.get(sha);
    if (!bits) this.#bySlot.set(sha, (bits = new Uint8Array(SLOTS / 8)));
    const byte = slot >> 3;
    const bit = 1 << (slot & 7);
    bits[byte] = loaded ? (bits[byte] ?? 0) | bit : (bits[byte] ?? 0) & ~bit;
  }
}
