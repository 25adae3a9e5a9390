// What the MultiLock tests share: a backend context, member locks of three kinds spread over the
// masters of a cluster, and checks that nothing is left behind.
import { eventually, useBackendContext, type AdapterName, type TopologyName } from '@deadbolt/conformance';
import { type LockBase, type LockClient } from '@deadbolt/core';
import { hashSlot } from '@deadbolt/core/adapter';
import { FairLock } from '@deadbolt/fair-lock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { expect } from 'vitest';

// The masters of the harness's cluster serve the slots in thirds.
const THIRD = 16_384 / 3;

export function useGroupContext(adapter: AdapterName, topology: TopologyName) {
  const ctx = useBackendContext(adapter, topology);
  const command = (key: string, ...args: (string | number)[]) => ctx.backend().command(args, key);
  const exists = async (key: string) => Number(await command(key, 'EXISTS', key)) === 1;

  /** Three unique names, in the slots of the first, second and third master of a cluster. */
  const spreadNames = (label: string): [string, string, string] => {
    const base = ctx.uniqueName(label);
    const inThird = (third: number) => {
      for (let i = 0; ; i++) {
        const name = `${base}:{${third}-${i}}`;
        if (Math.floor(hashSlot(name) / THIRD) === third) return name;
      }
    };
    return [inThird(0), inThird(1), inThird(2)];
  };

  /**
   * A plain lock on `client`, a fair lock on `other` and a write lock on `client`, each on its own
   * master in a cluster, with every key they may write.
   */
  const mixedMembers = (client: LockClient, other: LockClient, label: string) => {
    const [plain, fair, write] = spreadNames(label);
    const fairLock = new FairLock(other, fair);
    const locks: [LockBase, FairLock, LockBase] = [
      client.lock(plain),
      fairLock,
      new ReadWriteLock(client, write).writeLock(),
    ];
    return { locks, keys: [plain, fair, write, fairLock.keys.queue, fairLock.keys.timeouts] };
  };

  /** None of `keys` exists, and no channel naming one of them is subscribed any more. */
  const nothingLeft = async (keys: readonly string[]) => {
    for (const key of keys) expect(await exists(key), key).toBe(false);
    const ours = async () =>
      (await ctx.backend().pubsubChannels()).filter((channel) => keys.some((key) => channel.includes(key)));
    expect(await eventually(async () => (await ours()).length === 0)).toBe(true);
  };

  return { ...ctx, command, exists, spreadNames, mixedMembers, nothingLeft };
}
