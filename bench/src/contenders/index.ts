import type { Contender } from './Contender.js';
import { DEADBOLT, deadbolt } from './deadbolt.js';
import { nodeRedisson } from './nodeRedisson.js';
import { redisSemaphore } from './redisSemaphore.js';
import { redlock4 } from './redlock4.js';
import { redlockUniversal } from './redlockUniversal.js';
import { parseSemaphoreViewId, semaphoreView } from './semaphoreView.js';
import { sesameRedlock } from './sesameRedlock.js';

/** Every contender, Deadbolt first: each library on each driver it supports. */
export const CONTENDERS: readonly Contender[] = [
  deadbolt('ioredis'),
  deadbolt('node-redis'),
  deadbolt('valkey-glide'),
  redlock4(),
  sesameRedlock(),
  redisSemaphore(),
  redlockUniversal('ioredis'),
  redlockUniversal('node-redis'),
  redlockUniversal('valkey-glide'),
  nodeRedisson(),
];

/** The contender with this id, or the semaphore view of one (see semaphoreView.ts). */
export function contender(id: string): Contender {
  const view = parseSemaphoreViewId(id);
  if (view) return semaphoreView(contender(view.contenderId), view.shape);
  const found = CONTENDERS.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`Unknown contender ${id}`);
  return found;
}

/** Whether the contender is Deadbolt (the rows every peer is compared with). */
export function isDeadbolt(candidate: Contender): boolean {
  return candidate.library === DEADBOLT;
}
