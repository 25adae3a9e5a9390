import { LockError } from './LockError.js';

/**
 * The server's `maxmemory-policy` may evict lock keys (`allkeys-*`, or `volatile-*`, since every
 * lock key has a TTL), and the client was told to refuse such a server (`evictionPolicy: 'throw'`).
 * An evicted lock key is a lock two owners can hold at once. Every operation of that client
 * rejects with this error; set the policy to `noeviction` and create a new client.
 */
export class EvictionRiskError extends LockError {
  /** The server's `maxmemory-policy`, e.g. `allkeys-lru`. */
  readonly policy: string;

  /** @param policy - the server's `maxmemory-policy` */
  constructor(policy: string) {
    super(`Redis may evict lock keys: its maxmemory-policy is ${policy}; locks need noeviction`);
    this.policy = policy;
  }
}
