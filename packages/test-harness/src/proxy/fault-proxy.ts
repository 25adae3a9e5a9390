import net from 'node:net';
import { pickFreePort, type RedisAddress } from '@deadbolt/testing/servers';
import {
  NO_COUNTS,
  type FaultControls,
  type PartitionOptions,
  type ProxyCounters,
  type ProxyDirection,
} from './controls.js';
import { checkDelay, NO_DELAY, type Delay } from './delay.js';
import { ProxyLink, type LinkOwner } from './proxy-link.js';
import { registerProxy, unregisterProxy } from './registry.js';
import { RequestHold, type HoldOptions } from './request-hold.js';
import { RequestRule, type CutOptions, type RequestMatch } from './request-rule.js';

const LISTEN_ATTEMPTS = 5;
const BOTH: readonly ProxyDirection[] = ['toServer', 'toClient'];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A TCP proxy on 127.0.0.1 in front of one Redis server, for tests that need the network between
 * a driver and Redis to misbehave: latency, requests cut after Redis ran them (so the driver
 * re-sends), requests held back and delivered late on their old connection, partitions and
 * resets, all changeable while connections are open. Each accepted
 * client connection gets a connection of its own to the server. Start it with
 * {@link startFaultProxy}; close it (or call `stopAllProxies()`) when the test ends.
 */
export class FaultProxy implements FaultControls {
  /** The server behind the proxy. */
  readonly target: RedisAddress;
  /** Always `127.0.0.1`. */
  readonly host = '127.0.0.1';
  /** The port the proxy listens on. */
  readonly port: number;
  readonly #server: net.Server;
  readonly #links = new Set<ProxyLink>();
  readonly #rules: RequestRule[] = [];
  readonly #delays: Record<ProxyDirection, Delay> = { toServer: NO_DELAY, toClient: NO_DELAY };
  readonly #counters: Mutable<ProxyCounters> = { ...NO_COUNTS };
  readonly #healWaiters = new Set<() => void>();
  #partitioned = false;
  #healTimer: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;

  private constructor(server: net.Server, port: number, target: RedisAddress) {
    this.#server = server;
    this.port = port;
    this.target = { host: target.host, port: target.port };
    server.on('connection', (socket) => this.#accept(socket));
    registerProxy(this);
  }

  /** For {@link startFaultProxy}. */
  static async start(target: RedisAddress): Promise<FaultProxy> {
    let lastError: unknown;
    for (let attempt = 0; attempt < LISTEN_ATTEMPTS; attempt++) {
      const port = await pickFreePort();
      const server = net.createServer({ noDelay: true });
      try {
        await listen(server, port);
        return new FaultProxy(server, port, target);
      } catch (error) {
        // Someone else took the port between the check and the bind: pick another.
        lastError = error;
      }
    }
    throw new Error(`fault proxy: could not listen on a free port after ${LISTEN_ATTEMPTS} attempts`, {
      cause: lastError,
    });
  }

  /** `<host>:<port>` of the proxy. */
  get address(): string {
    return `${this.host}:${this.port}`;
  }

  get counters(): ProxyCounters {
    return { ...this.#counters };
  }

  get partitioned(): boolean {
    return this.#partitioned;
  }

  /** Client connections open through the proxy right now. */
  get openConnections(): number {
    return [...this.#links].filter((link) => link.clientOpen).length;
  }

  /** Connections to Redis open through the proxy right now: one per client connection, and one per held request whose client is gone. */
  get serverConnections(): number {
    return this.#links.size;
  }

  /** Timers the proxy has pending (delayed chunks, an automatic heal), for leak checks: 0 once closed. */
  get pendingTimers(): number {
    return [...this.#links].reduce((sum, link) => sum + link.pendingTimers, this.#healTimer === undefined ? 0 : 1);
  }

  /** `true` once {@link FaultProxy.close} was called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  setLatency(delay: number | Delay, directions: readonly ProxyDirection[] = BOTH): void {
    const checked = checkDelay(typeof delay === 'number' ? { ms: delay } : delay, 'latency');
    for (const direction of directions) this.#delays[direction] = checked;
  }

  cutAfterRequest(options: CutOptions): RequestRule {
    return this.addRule(new RequestRule(options, 'cut'));
  }

  holdRequest(options: HoldOptions): RequestHold {
    return this.addRule(new RequestHold(options));
  }

  watchRequests(match: RequestMatch): RequestRule {
    return this.addRule(new RequestRule(match, 'watch'));
  }

  /** Applies a rule made elsewhere (one shared by a group of proxies) to this proxy too. */
  addRule<Rule extends RequestRule>(rule: Rule): Rule {
    // Cancelled rules match nothing: forget them.
    const active = this.#rules.filter((each) => each.active);
    this.#rules.splice(0, this.#rules.length, ...active, rule);
    return rule;
  }

  clearRules(): void {
    for (const rule of this.#rules.splice(0)) rule.cancel();
  }

  partition(options: PartitionOptions = {}): void {
    if (this.#closing) return;
    const { durationMs } = options;
    if (durationMs !== undefined && !(durationMs >= 0 && Number.isFinite(durationMs))) {
      throw new RangeError(`partition durationMs must be a finite number >= 0, got ${durationMs}`);
    }
    if (!this.#partitioned) {
      this.#partitioned = true;
      this.#counters.partitions++;
      this.#interruptLinks();
    }
    clearTimeout(this.#healTimer);
    this.#healTimer = durationMs === undefined ? undefined : setTimeout(() => this.heal(), durationMs);
  }

  heal(): void {
    clearTimeout(this.#healTimer);
    this.#healTimer = undefined;
    this.#partitioned = false;
    for (const wake of [...this.#healWaiters]) wake();
    this.#healWaiters.clear();
  }

  whenHealed(): Promise<void> {
    if (!this.#partitioned) return Promise.resolve();
    return new Promise((resolve) => this.#healWaiters.add(resolve));
  }

  reset(): number {
    this.#counters.resets++;
    return this.#interruptLinks();
  }

  /**
   * Stops listening, destroys every connection (held requests are dropped undelivered), cancels
   * every timer and rule, and resolves once the listener is closed. Idempotent. A partition in
   * force ends (its waiters are released).
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.clearRules();
      this.heal();
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      this.#destroyLinks();
      await closed;
      unregisterProxy(this);
    })();
    return this.#closing;
  }

  #accept(socket: net.Socket): void {
    if (this.#partitioned || this.#closing) {
      this.#counters.connectionsRefused++;
      // A reset, as a dropped network path or a refused connect looks to the client.
      socket.on('error', () => undefined);
      socket.resetAndDestroy();
      return;
    }
    this.#counters.connectionsAccepted++;
    this.#links.add(new ProxyLink(socket, this.target, this.#linkOwner));
  }

  readonly #linkOwner: LinkOwner = {
    rules: () => this.#rules,
    delay: (direction) => this.#delays[direction],
    cutDone: (rule) => {
      this.#counters.requestsCut++;
      // Before anyone waiting on the rule hears of the cut, so that they find the partition in force.
      if (rule.partitionMs !== undefined) this.partition({ durationMs: rule.partitionMs });
      rule.recordCut();
    },
    held: (rule, request) => {
      this.#counters.requestsHeld++;
      rule.recordHeld(request);
    },
    delivered: () => this.#counters.requestsDelivered++,
    closed: (link) => this.#links.delete(link),
  };

  #destroyLinks(): void {
    for (const link of [...this.#links]) link.destroy();
  }

  /** Destroys every connection but the held requests' connections to Redis; returns how many client connections were open. */
  #interruptLinks(): number {
    return [...this.#links].filter((link) => link.interrupt()).length;
  }
}

/**
 * Starts a {@link FaultProxy} in front of `target` on a free port of 127.0.0.1. It forwards
 * faithfully until told otherwise.
 */
export function startFaultProxy(target: RedisAddress): Promise<FaultProxy> {
  return FaultProxy.start(target);
}

function listen(server: net.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
