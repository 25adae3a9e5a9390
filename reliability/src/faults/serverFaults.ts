import type { Backend } from '@deadbolt/conformance';
import { sleep, waitFor, type RedisNode } from '@deadbolt/test-harness';

/**
 * redis-server arguments for a server that keeps its data across a crash: every acknowledged
 * write is in the append-only file before the reply goes out, so a SIGKILL loses none.
 */
export const PERSISTENT_SERVER_ARGS: readonly string[] = ['--appendonly', 'yes', '--appendfsync', 'always'];

/** Kills every connection named `name` on the backend's nodes; throws when there was none to kill. */
export async function killSubscribers(backend: Backend, name: string): Promise<number> {
  const killed = await backend.killClientsByName(name);
  if (killed === 0) throw new Error(`no connection named ${name} to kill`);
  return killed;
}

/**
 * SIGKILLs the standalone server, leaves it down for `downMs`, and starts it again: empty, as
 * the harness keeps no data by default.
 */
export async function restartEmpty(backend: Backend, downMs: number): Promise<void> {
  await crashAndRestart(standaloneNode(backend), downMs);
}

/**
 * SIGKILLs the standalone server, leaves it down for `downMs`, and starts it again from its
 * append-only file.
 */
export async function restartWithData(backend: Backend, downMs: number): Promise<void> {
  const node = standaloneNode(backend);
  const appendonly = await node.command('CONFIG', 'GET', 'appendonly');
  if (!Array.isArray(appendonly) || appendonly[1] !== 'yes') {
    throw new Error('restartWithData needs a backend started with PERSISTENT_SERVER_ARGS');
  }
  await crashAndRestart(node, downMs);
}

async function crashAndRestart(node: RedisNode, downMs: number): Promise<void> {
  await node.kill();
  await sleep(downMs);
  await node.restart();
}

/** Fails the master that owns `key` over to its replica (CLUSTER FAILOVER); resolves with the new master. */
export async function failOver(backend: Backend, key: string): Promise<RedisNode> {
  const cluster = clusterOf(backend);
  return cluster.failover(await cluster.masterForKey(key));
}

/**
 * SIGKILLs the master that owns `key` and waits until its replica has taken over. Resolves with
 * the killed node, for {@link rejoin}.
 */
export async function killMaster(backend: Backend, key: string): Promise<RedisNode> {
  const cluster = clusterOf(backend);
  const master = await cluster.masterForKey(key);
  await master.kill();
  // Until the others mark it failed (cluster-node-timeout), they still map the slot to it.
  await waitFor(async () => (await cluster.masterForKey(key)) !== master, {
    timeoutMs: 30_000,
    intervalMs: 100,
    description: `a replica has taken over from the killed master ${master.port}`,
  });
  await cluster.waitUntilHealthy();
  return master;
}

/** Starts a killed cluster node again; it rejoins as a replica. */
export async function rejoin(backend: Backend, node: RedisNode): Promise<void> {
  await node.restart();
  await clusterOf(backend).waitUntilHealthy();
}

function standaloneNode(backend: Backend): RedisNode {
  const [node] = backend.nodes;
  if (backend.cluster !== undefined || node === undefined)
    throw new Error(`${backend.name} is not a standalone backend of the test's own`);
  return node;
}

function clusterOf(backend: Backend) {
  if (backend.cluster === undefined) throw new Error(`${backend.name} is not a cluster`);
  return backend.cluster;
}
