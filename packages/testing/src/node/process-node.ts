import { processState } from '../server/liveness.js';
import { makeServerDir, removeServerDir } from '../server/dirs.js';
import {
  exitsWithin,
  launchOnFreePort,
  launchOnPort,
  waitForExit,
  writeConfigFile,
  type ServerProcess,
} from '../server/spawn.js';
import { waitFor } from '../wait.js';
import { NodeAccess } from './node-access.js';
import type { RedisNode } from './redis-node.js';

const STOP_GRACE_MS = 1000;
const HOST = '127.0.0.1';

/** Options of {@link startProcessNode}. */
export interface ProcessNodeOptions {
  /** More redis-server arguments, e.g. `['--cluster-enabled', 'yes']`. */
  readonly args?: readonly string[];
  /**
   * The text of a config file, written into the server's directory after the harness's default
   * settings and passed first. The server may rewrite it (a Sentinel records what it learns there,
   * CONFIG REWRITE what was set at run time) and reads it again on a restart.
   */
  readonly config?: string;
}

/** Starts a redis-server child process on a free port and returns its handle once it answers PING. */
export async function startProcessNode(options: ProcessNodeOptions = {}): Promise<RedisNode> {
  const dir = makeServerDir();
  const args = options.args ?? [];
  try {
    const configFile = options.config === undefined ? undefined : writeConfigFile(dir, options.config);
    const { port, server } = await launchOnFreePort(dir, args, configFile);
    return new ProcessNode(port, dir, args, server, configFile);
  } catch (error) {
    removeServerDir(dir);
    throw error;
  }
}

/** A redis-server that is a child of this process, so faults are plain signals to its pid. */
class ProcessNode extends NodeAccess implements RedisNode {
  readonly host = HOST;
  readonly url: string;
  private paused = false;
  private stopped = false;

  constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly args: readonly string[],
    private server: ServerProcess,
    private readonly configFile: string | undefined,
  ) {
    super();
    this.url = `redis://${HOST}:${port}`;
  }

  get pid(): number {
    return this.server.pid;
  }

  get running(): boolean {
    return !this.server.hasExited();
  }

  async kill(): Promise<void> {
    if (!this.running) return;
    signal(this.pid, 'SIGKILL');
    await waitForExit(this.server);
    this.paused = false;
  }

  async restart(): Promise<void> {
    if (this.stopped) throw new Error(`redis-server on port ${this.port} was stopped; start a new one instead`);
    await this.kill();
    this.server = await launchOnPort(this.port, this.dir, this.args, this.configFile);
  }

  async pause(): Promise<void> {
    if (!this.running) throw new Error(`cannot pause redis-server on port ${this.port}: it is not running`);
    signal(this.pid, 'SIGSTOP');
    this.paused = true;
    // The signal is asynchronous; where /proc says so, wait until the process really stopped.
    if (processState(this.pid) !== undefined) {
      await waitFor(() => processState(this.pid) === 'T' || !this.running, {
        timeoutMs: 2000,
        intervalMs: 5,
        description: `redis-server ${this.pid} is stopped`,
      });
    }
  }

  async resume(): Promise<void> {
    if (!this.running) throw new Error(`cannot resume redis-server on port ${this.port}: it is not running`);
    signal(this.pid, 'SIGCONT');
    this.paused = false;
    await waitFor(async () => (await this.command('PING')) === 'PONG', {
      timeoutMs: 5000,
      description: `redis-server on port ${this.port} answers after SIGCONT`,
    });
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.running) {
      // A stopped process cannot act on SIGTERM until continued.
      if (this.paused) signal(this.pid, 'SIGCONT');
      signal(this.pid, 'SIGTERM');
      if (!(await exitsWithin(this.server, STOP_GRACE_MS))) {
        signal(this.pid, 'SIGKILL');
        await waitForExit(this.server);
      }
    }
    removeServerDir(this.dir);
  }
}

/** Sends a signal, ignoring "no such process": the node died on its own, which is fine here. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
