import { randomBytes } from 'node:crypto';
import { isAlive } from '@deadbolt/test-harness';
import { ip, ipQuietlySync, namespaceNames } from './ipCommand.js';

/** Every namespace name of the harness starts with this, so a leftover is easy to find. */
export const CHAOS_PREFIX = 'deadbolt-chaos-';
// One private /24 per network: each network has a bridge of its own, so networks never share it.
const SUBNET = '10.77.0';
const MAIN_BRIDGE = 'br0';
const MINORITY_BRIDGE = 'br1';
const live = new Set<ChaosNetwork>();
let exitHookInstalled = false;

/** Something placed on the network's hosts that must end before the network is removed (a process). */
export interface PlacedResource {
  /** Kills it; resolves once it is gone. */
  stop(): Promise<unknown>;
  /** Kills it at once without waiting: for the exit hook. */
  stopSync(): void;
}

/**
 * Test hosts, each a network namespace with one address, joined by veth pairs to a bridge in a
 * namespace of the network's own, so that nothing of it touches the machine's own interfaces or
 * routes, and two networks (two parallel runs) never see each other. Namespace names carry a run id
 * unique to this network. {@link ChaosNetwork.remove} stops every process placed on it and deletes
 * every namespace (the veth pairs go with them); an exit hook does the same for a process that ends
 * before it could.
 */
export class ChaosNetwork {
  /** `<prefix><run id>`: the start of every namespace name of this network. */
  readonly prefix: string;
  readonly hosts: ChaosHost[] = [];
  readonly #resources = new Set<PlacedResource>();
  readonly #bridge: string;

  private constructor(runId: string) {
    this.prefix = `${CHAOS_PREFIX}${runId}-`;
    this.#bridge = `${this.prefix}bridge`;
  }

  /** Creates the bridge namespace; add hosts with {@link ChaosNetwork.addHost}. */
  static async create(): Promise<ChaosNetwork> {
    if (process.platform !== 'linux' || process.getuid?.() !== 0)
      throw new Error('the chaos tests need root on Linux: they create network namespaces (ip netns)');
    installExitHook();
    await reapLeftovers();
    const network = new ChaosNetwork(`${process.pid.toString(36)}${randomBytes(3).toString('hex')}`);
    live.add(network);
    await ip('netns', 'add', network.#bridge);
    // br0 joins every host; br1 (empty until a split) is the minority side's of a split.
    for (const bridge of [MAIN_BRIDGE, MINORITY_BRIDGE]) {
      await ip('-n', network.#bridge, 'link', 'add', bridge, 'type', 'bridge');
      await ip('-n', network.#bridge, 'link', 'set', bridge, 'up');
    }
    return network;
  }

  /** The networks not removed yet. */
  static get live(): readonly ChaosNetwork[] {
    return [...live];
  }

  /** The namespaces this network made (the bridge's and every host's). */
  get namespaces(): readonly string[] {
    return [this.#bridge, ...this.hosts.map((host) => host.namespace)];
  }

  /** Adds a host named `name` (letters and digits), with the next address of the network. */
  async addHost(name: string): Promise<ChaosHost> {
    const index = this.hosts.length + 1;
    const host = new ChaosHost(this, name, `${this.prefix}${name}`, `${SUBNET}.${index}`, `port${index}`);
    this.hosts.push(host);
    await ip('netns', 'add', host.namespace);
    await ip(
      'link',
      'add',
      'eth0',
      'netns',
      host.namespace,
      'type',
      'veth',
      'peer',
      'name',
      host.port,
      'netns',
      this.#bridge,
    );
    await ip('-n', this.#bridge, 'link', 'set', host.port, 'master', MAIN_BRIDGE);
    await ip('-n', this.#bridge, 'link', 'set', host.port, 'up');
    await ip('-n', host.namespace, 'addr', 'add', `${host.address}/24`, 'dev', 'eth0');
    await ip('-n', host.namespace, 'link', 'set', 'eth0', 'up');
    await ip('-n', host.namespace, 'link', 'set', 'lo', 'up');
    return host;
  }

  /** Sets the bridge's port of `host` down or up: its link, as every other host sees it. */
  async setPort(host: ChaosHost, up: boolean): Promise<void> {
    await ip('-n', this.#bridge, 'link', 'set', host.port, up ? 'up' : 'down');
  }

  /**
   * Moves the bridge port of `host` to the minority side's bridge (`minority`) or back to the
   * main one: hosts on one bridge reach each other and nobody on the other, silently (a frame for
   * a host on the other bridge is flooded where that host is not, and dropped; no RST, no ICMP).
   */
  async setSide(host: ChaosHost, minority: boolean): Promise<void> {
    await ip('-n', this.#bridge, 'link', 'set', host.port, 'master', minority ? MINORITY_BRIDGE : MAIN_BRIDGE);
  }

  /** Keeps `resource` (a process on one of its hosts) to stop before the namespaces go. */
  adopt(resource: PlacedResource): void {
    this.#resources.add(resource);
  }

  /** Forgets a resource that ended on its own terms. */
  release(resource: PlacedResource): void {
    this.#resources.delete(resource);
  }

  /** Stops every process placed on it, then deletes its namespaces. Safe to call twice. */
  async remove(): Promise<void> {
    await Promise.allSettled([...this.#resources].map((resource) => resource.stop()));
    this.#resources.clear();
    for (const namespace of this.namespaces) await ip('netns', 'del', namespace).catch(() => undefined);
    live.delete(this);
  }

  /** {@link ChaosNetwork.remove} without waiting, for the exit hook. */
  removeSync(): void {
    for (const resource of this.#resources) resource.stopSync();
    for (const namespace of this.namespaces) ipQuietlySync('netns', 'del', namespace);
    live.delete(this);
  }
}

/** A test host: a network namespace with one address on its network's bridge. */
export class ChaosHost {
  #isolated = false;

  /** @internal made by {@link ChaosNetwork.addHost} */
  constructor(
    readonly network: ChaosNetwork,
    readonly name: string,
    readonly namespace: string,
    readonly address: string,
    /** Its veth peer's name in the bridge namespace. */
    readonly port: string,
  ) {}

  /** Whether it is cut off now. */
  get isolated(): boolean {
    return this.#isolated;
  }

  /**
   * Cuts it off from every other host, both ways, silently: its bridge port goes down, so packets
   * to and from it are dropped; no RST, no ICMP, every socket stays open and its peers' calls hang.
   */
  async isolate(): Promise<void> {
    await this.network.setPort(this, false);
    this.#isolated = true;
  }

  /**
   * Puts it on the minority side of a split (see {@link ChaosNetwork.setSide}): it reaches the
   * other hosts split off with it, and nobody else, both ways, silently.
   */
  async splitOff(): Promise<void> {
    await this.network.setSide(this, true);
    this.#isolated = true;
  }

  /** Joins it to the main side again after {@link ChaosHost.splitOff}. */
  async rejoin(): Promise<void> {
    await this.network.setSide(this, false);
    this.#isolated = false;
  }

  /** Joins it to the network again: the packets its peers retransmit get through. */
  async heal(): Promise<void> {
    await this.network.setPort(this, true);
    this.#isolated = false;
  }

  /** The command prefix that runs a program on this host. */
  get exec(): readonly string[] {
    return ['ip', 'netns', 'exec', this.namespace];
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const removeAll = () => {
    for (const network of [...live]) network.removeSync();
  };
  process.on('exit', removeAll);
  // A run stopped from outside: clean up, then die of the signal as we would have.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      removeAll();
      process.kill(process.pid, signal);
    });
  }
}

/**
 * Deletes the namespaces of networks whose process is gone (killed before any hook could run),
 * killing what still runs in them: the run id starts with the creating process's pid.
 */
async function reapLeftovers(): Promise<void> {
  const names = (await namespaceNames()).filter((name) => name.startsWith(CHAOS_PREFIX));
  for (const name of names) {
    const pid = parseInt(name.slice(CHAOS_PREFIX.length, name.indexOf('-', CHAOS_PREFIX.length)).slice(0, -6), 36);
    if (pid === process.pid || isAlive(pid)) continue;
    for (const orphan of (await ip('netns', 'pids', name)).split('\n').filter(Boolean)) {
      try {
        process.kill(Number(orphan), 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await ip('netns', 'del', name).catch(() => undefined);
  }
}
