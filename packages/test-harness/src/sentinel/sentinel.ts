import {
  type RedisNode,
  requireExecutable,
  RespError,
  startAll,
  startProcessNode,
  stopAll,
  stopOnFailure,
  waitFor,
} from '@deadbolt/testing/servers';
import { followsMaster, readLiveReplicaPorts, readSentinelView } from './views.js';

/** Options of {@link startSentinel}. */
export interface SentinelOptions {
  /** The name the Sentinels monitor the master under. Default `deadbolt`. */
  readonly masterName?: string;
  /** How long a master may not answer before a Sentinel thinks it down. Default 1000 ms. */
  readonly downAfterMs?: number;
  /**
   * Sentinel's `failover-timeout`: how long a failover may take, and twice it the pause before
   * another automatic failover of the same master. Default 2000 ms.
   */
  readonly failoverTimeoutMs?: number;
  /** How long to wait for the Sentinels to agree, at start and after a failover. Default 30 s. */
  readonly agreementTimeoutMs?: number;
}

/** Turns a master the Sentinels replaced into a replica of the new one, as Sentinel does. */
async function demote(old: RedisNode, master: RedisNode): Promise<void> {
  await old.command('REPLICAOF', master.host, master.port);
  for (const type of ['normal', 'pubsub']) await old.command('CLIENT', 'KILL', 'TYPE', type);
}

/** A host and port, as driver clients take a Sentinel's address. */
export interface SentinelAddress {
  readonly host: string;
  readonly port: number;
}

/** A Sentinel-managed deployment from {@link startSentinel}: a master, two replicas, three Sentinels. */
export interface SentinelHandle {
  /** The name the master is monitored under (ioredis `name`, node-redis `name`). */
  readonly masterName: string;
  /** The Sentinel processes (`redis-server --sentinel`). */
  readonly sentinels: readonly RedisNode[];
  /** Their addresses, for a driver's `sentinels` / `sentinelRootNodes`. */
  readonly sentinelAddresses: readonly SentinelAddress[];
  /**
   * The data nodes, the first master first; their roles change with failovers. Each has a config
   * file, which Sentinel rewrites as it changes the node's role, and CONFIG REWRITE as a test
   * changes a setting: as in a real deployment, a restarted node starts with what it records (a
   * promoted master comes back as a master, with its AOF if AOF was on).
   */
  readonly dataNodes: readonly RedisNode[];
  /** The master the Sentinels last agreed on. */
  master(): RedisNode;
  /** The running data nodes other than {@link SentinelHandle.master}. */
  replicas(): RedisNode[];
  /**
   * `SENTINEL FAILOVER`: promotes a replica without any node failing, and resolves with the new
   * master once every Sentinel names it and the other data nodes replicate it. The old master is
   * demoted at once, as Sentinel itself does it (REPLICAOF, then its normal and pub/sub clients
   * killed, so that they ask the Sentinels again); Sentinel would do so only when it next polls
   * that node, up to 10 s later, and until then the old master accepts writes.
   */
  failover(): Promise<RedisNode>;
  /**
   * SIGKILLs the master and resolves with the replica the Sentinels promoted, once every Sentinel
   * names it and the running data nodes replicate it. The killed node stays down until
   * {@link SentinelHandle.revive}.
   */
  killMaster(): Promise<RedisNode>;
  /** Restarts every killed data node as a replica of the current master and waits until it follows. */
  revive(): Promise<void>;
  /**
   * Resolves with the master once every Sentinel names the same one, no failover is under way,
   * the running data nodes replicate it and the Sentinels count them: after a fault a test caused
   * itself (a data node's restart, say).
   */
  waitForAgreement(): Promise<RedisNode>;
  /** Stops every server and Sentinel. */
  stop(): Promise<void>;
}

const DEFAULTS = {
  masterName: 'deadbolt',
  downAfterMs: 1000,
  failoverTimeoutMs: 2000,
  agreementTimeoutMs: 30_000,
} as const;
const QUORUM = 2;
const SENTINELS = 3;
const REPLICAS = 2;
const POLL_MS = 100;
// Refusals of SENTINEL FAILOVER that pass: no replica looks good yet, or a failover still ends.
const RETRYABLE = ['NOGOODSLAVE', 'INPROG'];

/**
 * Starts a master, two replicas of it and three Sentinels monitoring it (quorum 2), all on free
 * ports, and resolves once every Sentinel knows both replicas and the two other Sentinels.
 */
export async function startSentinel(options: SentinelOptions = {}): Promise<SentinelHandle> {
  requireExecutable('redis-server', 'startSentinel()');
  const settings = { ...DEFAULTS, ...options };
  // Config files, which Sentinel and CONFIG REWRITE rewrite: a restarted node comes back with them.
  const master = await startProcessNode({ config: '' });
  return stopOnFailure([master], async () => {
    const replicaConfig = `replicaof ${master.host} ${master.port}\n`;
    const replicas = await startAll(
      Array.from({ length: REPLICAS }, () => () => startProcessNode({ config: replicaConfig })),
    );
    const dataNodes = [master, ...replicas];
    return stopOnFailure(dataNodes, async () => {
      const config = sentinelConfig(settings, master);
      const sentinels = await startAll(
        Array.from({ length: SENTINELS }, () => () => startProcessNode({ args: ['--sentinel'], config })),
      );
      const deployment = new SentinelDeployment(settings, dataNodes, sentinels, master);
      await stopOnFailure([...dataNodes, ...sentinels], () => deployment.waitForAgreement());
      return deployment;
    });
  });
}

function sentinelConfig(settings: Required<SentinelOptions>, master: RedisNode): string {
  const name = settings.masterName;
  return [
    `sentinel monitor ${name} ${master.host} ${master.port} ${QUORUM}`,
    `sentinel down-after-milliseconds ${name} ${settings.downAfterMs}`,
    `sentinel failover-timeout ${name} ${settings.failoverTimeoutMs}`,
    // Both replicas move to the new master at once, so a failover ends sooner.
    `sentinel parallel-syncs ${name} ${REPLICAS}`,
    '',
  ].join('\n');
}

class SentinelDeployment implements SentinelHandle {
  readonly masterName: string;
  readonly sentinelAddresses: readonly SentinelAddress[];
  #master: RedisNode;

  constructor(
    private readonly settings: Required<SentinelOptions>,
    readonly dataNodes: readonly RedisNode[],
    readonly sentinels: readonly RedisNode[],
    master: RedisNode,
  ) {
    this.masterName = settings.masterName;
    this.sentinelAddresses = sentinels.map(({ host, port }) => ({ host, port }));
    this.#master = master;
  }

  master(): RedisNode {
    return this.#master;
  }

  replicas(): RedisNode[] {
    return this.dataNodes.filter((node) => node !== this.#master && node.running);
  }

  async failover(): Promise<RedisNode> {
    const old = this.#master;
    const [sentinel] = this.sentinels;
    if (sentinel === undefined) throw new Error('no sentinel');
    await waitFor(() => this.#askFailover(sentinel), {
      timeoutMs: this.settings.agreementTimeoutMs,
      intervalMs: POLL_MS,
      description: `a sentinel accepts SENTINEL FAILOVER ${this.masterName}`,
    });
    const promoted = await this.waitForAgreement(old, [old]);
    await demote(old, promoted);
    return this.waitForAgreement();
  }

  async killMaster(): Promise<RedisNode> {
    const old = this.#master;
    await old.kill();
    return this.waitForAgreement(old);
  }

  async revive(): Promise<void> {
    const master = this.#master;
    for (const node of this.dataNodes) {
      if (node.running) continue;
      await node.restart();
      await node.command('REPLICAOF', master.host, master.port);
    }
    await this.waitForAgreement();
  }

  stop(): Promise<void> {
    return stopAll([...this.sentinels, ...this.dataNodes]);
  }

  /**
   * Waits until every Sentinel names the same master (not `old`), no failover is under way, the
   * running data nodes replicate it, and each Sentinel counts them as live replicas.
   */
  async waitForAgreement(old?: RedisNode, ignored: readonly RedisNode[] = []): Promise<RedisNode> {
    let agreed: RedisNode | undefined;
    await waitFor(async () => (agreed = await this.#agreedMaster(old, ignored)) !== undefined, {
      timeoutMs: this.settings.agreementTimeoutMs,
      intervalMs: POLL_MS,
      description: `the sentinels agree on a master of ${this.masterName}${old === undefined ? '' : ` other than port ${old.port}`} and its replicas follow it`,
    });
    if (agreed === undefined) throw new Error('unreachable: waitFor resolved without an agreed master');
    this.#master = agreed;
    return agreed;
  }

  async #agreedMaster(old: RedisNode | undefined, ignored: readonly RedisNode[]): Promise<RedisNode | undefined> {
    const views = await Promise.all(this.sentinels.map((sentinel) => readSentinelView(sentinel, this.masterName)));
    const ports = new Set(views.map((view) => view.masterPort));
    const [port] = ports;
    if (ports.size !== 1 || port === old?.port) return undefined;
    if (views.some((view) => view.otherSentinels < SENTINELS - 1 || view.flags.some((flag) => flag !== 'master')))
      return undefined;
    const master = this.dataNodes.find((node) => node.port === port && node.running);
    const followers = this.dataNodes.filter((node) => !ignored.includes(node));
    if (master === undefined || !(await followsMaster(master, followers))) return undefined;
    const expected = followers.filter((node) => node !== master && node.running).map((node) => node.port);
    for (const sentinel of this.sentinels) {
      const live = await readLiveReplicaPorts(sentinel, this.masterName);
      if (expected.some((replicaPort) => !live.includes(replicaPort))) return undefined;
    }
    return master;
  }

  async #askFailover(sentinel: RedisNode): Promise<boolean> {
    try {
      await sentinel.command('SENTINEL', 'FAILOVER', this.masterName);
      return true;
    } catch (error) {
      if (error instanceof RespError && RETRYABLE.includes(error.prefix.replace(/^-/, ''))) return false;
      throw error;
    }
  }
}
