import type { ContainerRuntimeClient, StartedTestContainer } from 'testcontainers';
import { pickFreePort } from '../server/ports.js';
import { RedisUnavailableError } from '../unavailable.js';
import { waitFor } from '../wait.js';
import { NodeAccess } from './node-access.js';
import type { RedisNode } from './redis-node.js';

/** The image used when no redis-server binary exists; override with DEADBOLT_REDIS_IMAGE. */
const DEFAULT_IMAGE = 'redis:7.4-alpine';
const REDIS_PORT = 6379;

/** dockerode's container handle, named through testcontainers (dockerode is not our dependency). */
type DockerContainer = ReturnType<ContainerRuntimeClient['container']['getById']>;

/**
 * Starts Redis in a container through testcontainers, for machines without a redis-server
 * binary. testcontainers is imported here, lazily, so it is never loaded when the binary exists.
 * Fails with the one clear {@link RedisUnavailableError} when no container runtime answers.
 */
export async function startContainerNode(what: string, args: readonly string[] = []): Promise<RedisNode> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  let client: ContainerRuntimeClient;
  try {
    client = await getContainerRuntimeClient();
  } catch (error) {
    throw new RedisUnavailableError(
      what,
      `no redis-server binary, and no container runtime answered: ${(error as Error).message}`,
    );
  }
  const { RedisContainer } = await import('@testcontainers/redis');
  // A fixed host port, so a restarted container comes back where clients expect it.
  const port = await pickFreePort();
  const started = await new RedisContainer(process.env['DEADBOLT_REDIS_IMAGE'] ?? DEFAULT_IMAGE)
    .withExposedPorts({ container: REDIS_PORT, host: port })
    .withCommand(['redis-server', '--save', '', '--appendonly', 'no', ...args])
    .start();
  const node = new ContainerNode(started, client.container.getById(started.getId()), port);
  await node.refreshPid();
  return node;
}

/**
 * A Redis server in a container. Faults go through the container runtime: kill and restart
 * are `docker kill` and `docker start`, pause is the cgroup freezer (`docker pause`), which
 * freezes the server just as SIGSTOP does. Testcontainers' reaper removes it if we die.
 */
class ContainerNode extends NodeAccess implements RedisNode {
  readonly host: string;
  readonly url: string;
  private currentPid = 0;
  private isRunning = true;
  private paused = false;
  private stopped = false;

  constructor(
    private readonly started: StartedTestContainer,
    private readonly container: DockerContainer,
    readonly port: number,
  ) {
    super();
    this.host = started.getHost();
    this.url = `redis://${this.host}:${port}`;
  }

  /** The server's pid as the container runtime's host sees it (0 while not running). */
  get pid(): number {
    return this.currentPid;
  }

  get running(): boolean {
    return this.isRunning;
  }

  async refreshPid(): Promise<void> {
    const state = (await this.container.inspect()).State;
    this.isRunning = state.Running;
    this.currentPid = state.Running ? state.Pid : 0;
  }

  async kill(): Promise<void> {
    if (!this.isRunning) return;
    if (this.paused) await this.resumeContainer();
    await this.container.kill({ signal: 'SIGKILL' });
    await waitFor(async () => (await this.container.inspect()).State.Running === false, {
      timeoutMs: 10_000,
      description: `the redis container on port ${this.port} is gone`,
    });
    await this.refreshPid();
  }

  async restart(): Promise<void> {
    if (this.stopped) throw new Error(`redis container on port ${this.port} was stopped; start a new one instead`);
    await this.kill();
    await this.container.start();
    await this.refreshPid();
    await this.waitForPong();
  }

  async pause(): Promise<void> {
    if (!this.isRunning) throw new Error(`cannot pause redis container on port ${this.port}: it is not running`);
    await this.container.pause();
    this.paused = true;
  }

  async resume(): Promise<void> {
    if (!this.isRunning) throw new Error(`cannot resume redis container on port ${this.port}: it is not running`);
    await this.resumeContainer();
    await this.waitForPong();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.paused) await this.resumeContainer();
    await this.started.stop({ timeout: 1000 });
    this.isRunning = false;
    this.currentPid = 0;
  }

  private async resumeContainer(): Promise<void> {
    await this.container.unpause();
    this.paused = false;
  }

  private waitForPong(): Promise<void> {
    return waitFor(async () => (await this.command('PING')) === 'PONG', {
      timeoutMs: 10_000,
      description: `the redis container on port ${this.port} answers PING`,
    });
  }
}
