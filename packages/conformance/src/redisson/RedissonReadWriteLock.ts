import { RedissonReadLock } from './RedissonReadLock.js';
import type { RedissonPeer } from './RedissonPeer.js';
import { RedissonWriteLock } from './RedissonWriteLock.js';

/** Redisson's `RReadWriteLock` on one name: a {@link RedissonReadLock} and a {@link RedissonWriteLock}. */
export class RedissonReadWriteLock {
  readonly name: string;
  readonly #read: RedissonReadLock;
  readonly #write: RedissonWriteLock;

  constructor(peer: RedissonPeer, name: string) {
    this.name = name;
    this.#read = new RedissonReadLock(peer, name);
    this.#write = new RedissonWriteLock(peer, name);
  }

  readLock(): RedissonReadLock {
    return this.#read;
  }

  writeLock(): RedissonWriteLock {
    return this.#write;
  }
}
