import { RedisUnavailableError } from '../errors/LockError.js';
import { ReplicaSyncError, type SyncedOperation } from '../errors/ReplicaSyncError.js';
import type { CommandArguments, Executor } from '../executor/Executor.js';
import type { ResolvedReplicaSyncOptions } from './ReplicaSyncOptions.js';
import { syncCommandFor, type SyncCommand } from './syncCommand.js';

/**
 * Waits until replicas acknowledge writes (`LockClientOptions.replicaSync`): the lock client's
 * part of replica sync, which locks, semaphores and latches call (as `LockRuntime.confirmReplicas`)
 * after a successful acquisition, release or change of a count.
 */
export class ReplicaSync {
  /** The options in force. */
  readonly options: ResolvedReplicaSyncOptions;
  readonly #executor: Executor;
  readonly #commandTimeout: number;
  #command: Promise<SyncCommand> | undefined;

  constructor(executor: Executor, options: ResolvedReplicaSyncOptions, commandTimeout: number) {
    this.#executor = executor;
    this.options = options;
    this.#commandTimeout = commandTimeout;
  }

  /**
   * Waits until enough replicas acknowledge every write made so far on the connection that runs
   * the scripts of `name` (a lock, semaphore or latch), which includes the `operation` just done
   * there.
   *
   * @throws {@link ReplicaSyncError} when too few acknowledged within the timeout and retries
   * @throws {@link RedisUnavailableError} when the wait itself failed
   */
  async confirm(name: string, operation: SyncedOperation): Promise<void> {
    const { replicas, timeout, retries } = this.options;
    const command = await this.#syncCommand(name);
    const args: CommandArguments =
      command === 'WAITAOF' ? ['WAITAOF', 0, replicas, timeout] : ['WAIT', replicas, timeout];
    let acknowledged = 0;
    for (let wait = 0; wait <= retries; wait++) {
      const reply = await this.#send(name, args, timeout).catch((error: unknown) => {
        // The server may have changed under us (a failover, AOF switched off): probe it again.
        this.#command = undefined;
        throw error;
      });
      // WAITAOF replies [local fsyncs, replica fsyncs].
      acknowledged = Number(Array.isArray(reply) ? reply[1] : reply);
      if (acknowledged >= replicas) return;
    }
    throw new ReplicaSyncError(name, operation, acknowledged, replicas);
  }

  // Probed once per client; a failed probe is tried again next time rather than remembered.
  #syncCommand(name: string): Promise<SyncCommand> {
    if (!this.#command) {
      const probe = this.#send(name, ['INFO'], 0).then((info) => syncCommandFor(String(info)));
      this.#command = probe;
      probe.catch(() => {
        if (this.#command === probe) this.#command = undefined;
      });
    }
    return this.#command;
  }

  // Bounded like a script call, plus the time the command itself may block.
  #send(name: string, args: CommandArguments, blocks: number): Promise<unknown> {
    const limit = this.#commandTimeout + blocks;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new RedisUnavailableError(`Redis did not answer ${args[0]} for lock "${name}" within ${limit} ms`, {
            lockName: name,
          }),
        );
      }, limit);
      this.#executor.command(name, args).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          const message = error instanceof Error ? error.message : String(error);
          reject(
            new RedisUnavailableError(`${args[0]} for lock "${name}" failed: ${message}`, {
              lockName: name,
              cause: error,
            }),
          );
        },
      );
    });
  }
}
