import { quorum } from '@deadbolt/redlock';
import type { ChaosRedis } from './ChaosRedis.js';

/**
 * The holder's copies of a RedLock when some members' wall clocks jumped: all of its copies, and
 * those on members whose clock stayed true. A jump past the lease expires the copies on the
 * jumping members at once; exclusion then rests on the rest alone.
 */
export interface CopiesAtJump {
  readonly copies: number;
  readonly onTrueClocks: number;
}

/**
 * Reads, over each member's Unix socket, which owner id holds the RedLock's key there, and counts the
 * copies of the owner holding most (the holder: a round's losers give back theirs) on all members
 * and on those from index `jumping` on (the first `jumping` members are the ones whose clocks jump).
 */
export async function holderCopies(
  members: readonly ChaosRedis[],
  key: string,
  jumping: number,
): Promise<CopiesAtJump> {
  const owners = await Promise.all(members.map(async (member) => ownerOf(await member.command(['HKEYS', key]))));
  const counts = new Map<string, number>();
  for (const owner of owners) if (owner !== null) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  const [holder] = [...counts.entries()].sort(([, a], [, b]) => b - a)[0] ?? [null];
  return {
    copies: owners.filter((owner) => owner !== null && owner === holder).length,
    onTrueClocks: owners.slice(jumping).filter((owner) => owner !== null && owner === holder).length,
  };
}

/** Whether every jump left the holder a quorum of copies on members whose clocks stayed true. */
export function quorumStayedTrue(jumps: readonly CopiesAtJump[], members: number): boolean {
  return jumps.every((jump) => jump.onTrueClocks >= quorum(members));
}

// A Redisson lock hash has one field, `<clientId>:<ownerId>`: each member's client has an id of its
// own, and the group gives every member the same owner id. An empty reply means no copy there.
function ownerOf(fields: unknown): string | null {
  const field: unknown = Array.isArray(fields) ? fields[0] : undefined;
  return typeof field === 'string' ? field.slice(field.indexOf(':') + 1) : null;
}
