import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { BIN_DIR_ENV, waitFor } from '@deadbolt/test-harness';
import type { ChaosHost, PlacedResource } from './ChaosNetwork.js';

/** The port every chaos server listens on: each host has an address of its own. */
export const CHAOS_REDIS_PORT = 6379;

/** Options of {@link ChaosRedis.start}. */
export interface ChaosRedisOptions {
  /** More `redis-server` arguments. */
  readonly args?: readonly string[];
  /** More environment variables: a `ServerClock`'s, say. */
  readonly environment?: Readonly<Record<string, string>>;
  /** The port; {@link CHAOS_REDIS_PORT} when absent. */
  readonly port?: number;
  /**
   * A configuration file's text, written into its directory and loaded first: a Sentinel's (with
   * `--sentinel` in `args`), which rewrites the file as it learns the deployment.
   */
  readonly config?: string;
}

/**
 * A `redis-server` on a test host, listening on the host's address (for the clients, through the
 * network and its faults) and on a Unix socket (for the test process, which is on none of the
 * hosts: it reads and pokes the server whatever the network does). Killed and restarted on the same
 * address and data directory; stopped and its directory removed with its network.
 */
export class ChaosRedis implements PlacedResource {
  readonly #host: ChaosHost;
  readonly #options: ChaosRedisOptions;
  readonly #dir: string;
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();

  private constructor(host: ChaosHost, options: ChaosRedisOptions) {
    this.#host = host;
    this.#options = options;
    this.#dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-chaos-redis-'));
  }

  /** Starts a server on `host` and waits until it answers. */
  static async start(host: ChaosHost, options: ChaosRedisOptions = {}): Promise<ChaosRedis> {
    const server = new ChaosRedis(host, options);
    host.network.adopt(server);
    await server.#launch();
    return server;
  }

  /** Where clients on the hosts reach it. */
  get address(): { readonly host: string; readonly port: number } {
    return { host: this.#host.address, port: this.#options.port ?? CHAOS_REDIS_PORT };
  }

  /**
   * Its Unix socket: reachable from every host and the test process whatever the network does
   * (a path, not an address: network namespaces do not separate it).
   */
  get socketPath(): string {
    return this.#socket;
  }

  get host(): ChaosHost {
    return this.#host;
  }

  /** Its pid; 0 while it is down. */
  get pid(): number {
    return this.#child?.exitCode === null ? (this.#child.pid ?? 0) : 0;
  }

  /** Runs one command over its Unix socket (never through the network) and resolves with the reply. */
  async command(args: readonly (string | number)[]): Promise<unknown> {
    const [name = 'PING', ...rest] = args;
    const client = new Redis({
      path: this.#socket,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await client.call(String(name), ...rest.map(String));
    } finally {
      client.disconnect();
    }
  }

  /** Kills it at once (SIGKILL), as a crash would; resolves once it is gone. */
  async kill(): Promise<void> {
    this.#child?.kill('SIGKILL');
    await this.#exited;
  }

  /** Starts it again, on the same address and directory. */
  async restart(): Promise<void> {
    await this.kill();
    await this.#launch();
  }

  /** Kills it and removes its directory. */
  async stop(): Promise<void> {
    await this.kill();
    fs.rmSync(this.#dir, { recursive: true, force: true });
    this.#host.network.release(this);
  }

  stopSync(): void {
    this.#child?.kill('SIGKILL');
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }

  get #socket(): string {
    return path.join(this.#dir, 'redis.sock');
  }

  async #launch(): Promise<void> {
    const binDir = process.env[BIN_DIR_ENV];
    const binary = binDir === undefined || binDir === '' ? 'redis-server' : path.join(binDir, 'redis-server');
    const config = path.join(this.#dir, 'redis.conf');
    // A restart keeps what a Sentinel rewrote into its file.
    if (this.#options.config !== undefined && !fs.existsSync(config)) fs.writeFileSync(config, this.#options.config);
    const args = [
      ...(this.#options.config === undefined ? [] : [config]),
      ...['--port', String(this.address.port), '--bind', this.#host.address],
      ...['--unixsocket', this.#socket, '--unixsocketperm', '700'],
      ...['--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'no'],
      ...['--dir', this.#dir, '--logfile', path.join(this.#dir, 'redis.log')],
      ...(this.#options.args ?? []),
    ];
    const [command = 'ip', ...prefix] = this.#host.exec;
    // `ip netns exec` execs the server: the pid is the server's, and so are the signals.
    const child = spawn(command, [...prefix, binary, ...args], {
      stdio: 'ignore',
      env: { ...process.env, ...this.#options.environment },
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`redis-server on ${this.#host.name} exited:\n${this.#log()}`);
        return (await this.command(['PING']).catch(() => undefined)) === 'PONG';
      },
      { timeoutMs: 10_000, intervalMs: 20, description: `redis-server on ${this.#host.name} answers` },
    );
  }

  #log(): string {
    try {
      return fs.readFileSync(path.join(this.#dir, 'redis.log'), 'utf8').split('\n').slice(-10).join('\n');
    } catch {
      return '(no log)';
    }
  }
}
