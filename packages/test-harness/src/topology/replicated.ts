import {
  parseInfo,
  type RedisNode,
  requireExecutable,
  sleep,
  startProcessNode,
  stopAll,
  stopOnFailure,
  waitFor,
} from '@deadbolt/testing/servers';

/** A master and one replica of it, from {@link startReplicated}. */
export interface ReplicatedHandle {
  readonly master: RedisNode;
  readonly replica: RedisNode;
  /** Master first, then replica. */
  readonly nodes: readonly RedisNode[];
  /**
   * Waits until the replica reports `master_link_status:up` and the master's write stream
   * reaches it, e.g. after restarting either node. Default timeout 15 s.
   */
  waitForReplicaSync(timeoutMs?: number): Promise<void>;
  /** Stops both servers. */
  readonly stop: () => Promise<void>;
}

/** A channel nobody subscribes to; publishing on it moves the replication offset, and no key. */
const PROBE_CHANNEL = '__deadbolt_test_harness_sync_probe__';

/**
 * Starts a master and a replica (`--replicaof`), and resolves once the replica reports
 * `master_link_status:up` and receives the master's writes.
 */
export async function startReplicated(): Promise<ReplicatedHandle> {
  requireExecutable('redis-server', 'startReplicated()');
  const master = await startProcessNode();
  return stopOnFailure([master], async () => {
    const replica = await startProcessNode({ args: ['--replicaof', master.host, String(master.port)] });
    const nodes = [master, replica];
    const handle: ReplicatedHandle = {
      master,
      replica,
      nodes,
      waitForReplicaSync: (timeoutMs = 15_000) =>
        waitFor(() => isStreaming(master, replica), {
          timeoutMs,
          intervalMs: 100,
          description: `replica ${replica.port} is linked to master ${master.port} and receives its writes`,
        }),
      stop: () => stopAll(nodes),
    };
    await stopOnFailure(nodes, () => handle.waitForReplicaSync());
    return handle;
  });
}

/**
 * `master_link_status:up` alone is not enough: after a diskless full sync, Redis 7.0 holds the
 * write stream back until the replica's next REPLCONF ACK, up to a second later, so a write
 * made right away may not reach the replica for a while (and WAIT may still count it).
 * So also send something through the stream and see it arrive.
 */
async function isStreaming(master: RedisNode, replica: RedisNode): Promise<boolean> {
  if (parseInfo(await replica.command('INFO', 'replication')).get('master_link_status') !== 'up') return false;
  await master.command('PUBLISH', PROBE_CHANNEL, 'probe');
  const target = Number(parseInfo(await master.command('INFO', 'replication')).get('master_repl_offset'));
  const deadline = Date.now() + 250;
  do {
    const offset = Number(parseInfo(await replica.command('INFO', 'replication')).get('slave_repl_offset'));
    if (offset >= target) return true;
    await sleep(10);
  } while (Date.now() < deadline);
  return false;
}
