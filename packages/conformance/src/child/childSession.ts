import { LockClient, type Executor, type LockClientOptions } from '@deadbolt/core';
import { connectExecutor, type ConnectionSpec } from '../backends/index.js';

/** What a child process of a test or benchmark starts with: its job, and a client on its backend. */
export interface ChildSession<Job> {
  /** The job its parent passed as JSON in an environment variable. */
  readonly job: Job;
  readonly executor: Executor;
  readonly client: LockClient;
  /** Closes the lock client, then the executor and its driver client. */
  readonly close: () => Promise<void>;
}

/** What every child job carries: the backend to connect to, and the lock client's options. */
export interface ChildJob {
  readonly spec: ConnectionSpec;
  /** Options of the child's lock client (JSON-serialisable ones only); the defaults when absent. */
  readonly clientOptions?: LockClientOptions;
}

/**
 * In a child process: reads the job its parent put as JSON in the environment variable `name`,
 * and connects a lock client with the job's `clientOptions` to the backend its `spec` names.
 */
export async function startChildSession<Job extends ChildJob>(name: string): Promise<ChildSession<Job>> {
  const job = JSON.parse(process.env[name] ?? '') as Job;
  const connected = await connectExecutor(job.spec);
  const client = new LockClient(connected.executor, job.clientOptions);
  return {
    job,
    executor: connected.executor,
    client,
    close: async () => {
      await client.close();
      await connected.close();
    },
  };
}
