import type { RespConnection, RespConnectionOptions } from '../resp/connection.js';
import type { RespArgument, RespValue } from '../resp/protocol.js';

/**
 * One Redis server started for a test, with the faults a test can inject into it.
 * Every method is safe to call on a node that is already dead, except `command` and `connect`,
 * which fail the way a client would (connection refused).
 */
export interface RedisNode {
  /** Always `127.0.0.1` for a local process; the container host for a container. */
  readonly host: string;
  /** The client port; it stays the same across restarts. */
  readonly port: number;
  /** `redis://<host>:<port>`, ready for a driver. */
  readonly url: string;
  /** The server's current process id; a restart changes it. */
  readonly pid: number;
  /** True while the server process exists (running or paused). */
  readonly running: boolean;
  /** SIGKILLs the server, as a crash would, and resolves once the process is gone. */
  kill(): Promise<void>;
  /**
   * Starts the server again on the same port and waits until it answers PING. Data is gone, as
   * after a crash without persistence; a cluster node keeps its identity (its nodes.conf). A
   * node started with a config file starts from it again, with what CONFIG REWRITE recorded
   * there: with AOF on, it reloads its data from its AOF. A running node is killed first.
   */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open but nothing is answered. */
  pause(): Promise<void>;
  /** Unfreezes a paused server (SIGCONT) and waits until it answers again. */
  resume(): Promise<void>;
  /** Ends the server for good (SIGTERM, then SIGKILL after ~1 s) and removes its files. */
  stop(): Promise<void>;
  /** Runs one raw command on a fresh connection (5 s timeout) and returns the reply. */
  command(...args: RespArgument[]): Promise<RespValue>;
  /** Opens a raw connection for tests that need to hold one (named, or with a short timeout). */
  connect(options?: RespConnectionOptions): Promise<RespConnection>;
  /**
   * Kills every client connection whose name (CLIENT SETNAME) is `name`, as found in
   * CLIENT LIST, and returns how many were killed.
   */
  killClientByName(name: string): Promise<number>;
}
