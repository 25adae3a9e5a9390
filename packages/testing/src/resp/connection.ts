import net from 'node:net';
import { encodeCommand, RespError, RespParser, type RespArgument, type RespValue } from './protocol.js';

/** Where to connect: a host and a TCP port. */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
}

/** Options of {@link RespConnection.connect}. */
export interface RespConnectionOptions {
  /**
   * How long to wait for the TCP connection and then for each reply. A paused (SIGSTOP) server
   * still accepts connections in the kernel but never answers, so this is what ends the wait.
   * Default 5000 ms.
   */
  readonly timeoutMs?: number;
  /** Sets `CLIENT SETNAME` right after connecting, so the connection can be found and killed. */
  readonly name?: string;
}

/** A command got no reply (or the connection did not open) within the timeout. */
export class RedisTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisTimeoutError';
  }
}

interface Pending {
  readonly resolve: (value: RespValue) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * A minimal RESP2 connection over `net`, enough to ping, inspect and poke
 * servers without depending on a Redis driver (the drivers are what the tests exercise).
 * Commands are pipelined; replies are matched to commands in order.
 */
export class RespConnection {
  private readonly pending: Pending[] = [];
  private readonly parser = new RespParser();
  private closedWith: Error | undefined;

  private constructor(
    private readonly socket: net.Socket,
    private readonly timeoutMs: number,
    private readonly label: string,
  ) {
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error(`connection to ${label} closed`)));
  }

  /** Opens a connection to an address or a Unix socket (`path`); rejects with the socket error (e.g. `ECONNREFUSED`) or a timeout. */
  static async connect(
    address: RedisAddress | { readonly path: string },
    options: RespConnectionOptions = {},
  ): Promise<RespConnection> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const label = 'path' in address ? address.path : `${address.host}:${address.port}`;
    const socket = await openSocket(address, timeoutMs, label);
    const connection = new RespConnection(socket, timeoutMs, label);
    if (options.name !== undefined) {
      try {
        await connection.command('CLIENT', 'SETNAME', options.name);
      } catch (error) {
        connection.close();
        throw error;
      }
    }
    return connection;
  }

  /** True once the socket closed, by either side. */
  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  /** Sends one command and resolves with its reply; an error reply rejects with {@link RespError}. */
  command(...args: RespArgument[]): Promise<RespValue> {
    if (this.closedWith !== undefined) return Promise.reject(this.closedWith);
    const name = String(args[0] ?? '');
    return new Promise<RespValue>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Replies are matched by order, so after a lost reply the stream is useless: drop it.
        this.fail(new RedisTimeoutError(`no reply to ${name} from ${this.label} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.push({ resolve, reject, timer });
      this.socket.write(encodeCommand(args));
    });
  }

  /** Closes the socket at once; commands still waiting reject. Safe to call twice. */
  close(): void {
    this.fail(new Error(`connection to ${this.label} was closed by the test`));
  }

  private onData(chunk: Buffer): void {
    let replies: RespValue[];
    try {
      replies = this.parser.push(chunk);
    } catch (error) {
      this.fail(error as Error);
      return;
    }
    for (const reply of replies) {
      const waiter = this.pending.shift();
      if (waiter === undefined) continue;
      clearTimeout(waiter.timer);
      if (reply instanceof RespError) waiter.reject(reply);
      else waiter.resolve(reply);
    }
  }

  private fail(error: Error): void {
    if (this.closedWith === undefined) this.closedWith = error;
    this.socket.destroy();
    for (const waiter of this.pending.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
  }
}

function openSocket(
  address: RedisAddress | { readonly path: string },
  timeoutMs: number,
  label: string,
): Promise<net.Socket> {
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = net.createConnection('path' in address ? { path: address.path } : { ...address });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new RedisTimeoutError(`could not connect to ${label} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * Opens a connection, runs one command and closes it again. One connection per command is
 * slower but survives the faults the tests inject (killed servers, killed connections).
 */
export async function sendCommand(
  address: RedisAddress,
  args: readonly RespArgument[],
  options: RespConnectionOptions = {},
): Promise<RespValue> {
  const connection = await RespConnection.connect(address, options);
  try {
    return await connection.command(...args);
  } finally {
    connection.close();
  }
}
