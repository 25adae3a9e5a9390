import { LockClient, type LockClientOptions } from '@deadbolt/core';
import { afterAll, afterEach, beforeAll, it } from 'vitest';
import {
  startBackend,
  type AdapterName,
  type Backend,
  type BackendOptions,
  type TopologyName,
} from './backends/index.js';
import type { ConformantLock, LockSubject, SingleLockKind } from './kinds/index.js';

/**
 * What a test on a running backend gets: the backend, fresh clients and unique lock names. Its
 * functions use no `this`: a test may pass one on alone, and {@link suiteContextOn} copies them.
 */
export interface BackendContext {
  readonly backend: () => Backend;
  /** A new lock client on its own executor; closed after the test. */
  readonly client: (options?: LockClientOptions) => Promise<LockClient>;
  /** A lock name unique to this run. */
  readonly uniqueName: (label?: string) => string;
}

/** What every conformance test gets: a {@link BackendContext} and the lock kind under test, in one role. */
export interface SuiteContext extends BackendContext {
  readonly subject: LockSubject<SingleLockKind>;
  /** A lock of the kind under test on `client`, with a name unique to this test. */
  lock(client: LockClient, label?: string): ConformantLock;
  /** A lock of the kind under test on `client` named `name`. */
  lockNamed(client: LockClient, name: string): ConformantLock;
}

let counter = 0;

/**
 * Starts the backend for a `describe` block and hands out clients that are closed after each
 * test, so no test leaves a subscription or a watchdog timer behind for the next. `dedicated`
 * starts servers of its own even when REDIS_URL names one, for tests that inject faults.
 */
export function useBackendContext(
  adapter: AdapterName,
  topology: TopologyName,
  options: BackendOptions = {},
): BackendContext {
  let backend: Backend | undefined;
  const open: LockClient[] = [];
  beforeAll(async () => {
    backend = await startBackend(adapter, topology, options);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await backend?.close();
  });
  const context: BackendContext = {
    backend() {
      if (!backend) throw new Error('backend not started');
      return backend;
    },
    async client(options) {
      const executor = await context.backend().createExecutor();
      const client = new LockClient(executor, options);
      open.push(client);
      return client;
    },
    uniqueName(label = 'lock') {
      return `conformance:${label}:${process.pid}:${++counter}`;
    },
  };
  return context;
}

/** A {@link BackendContext} for the conformance suite of one lock kind in one role. */
export function useSuiteContext(
  subject: LockSubject<SingleLockKind>,
  adapter: AdapterName,
  topology: TopologyName,
  options: { dedicated?: boolean } = {},
): SuiteContext {
  return suiteContextOn(useBackendContext(adapter, topology, { dedicated: options.dedicated ?? false }), subject);
}

/** A {@link SuiteContext} for `subject` on a backend other kinds' suites may share. */
export function suiteContextOn(context: BackendContext, subject: LockSubject<SingleLockKind>): SuiteContext {
  const lockNamed = (client: LockClient, name: string) => subject.kind.create([client], name, subject.role.name);
  return { ...context, subject, lockNamed, lock: (client, label) => lockNamed(client, context.uniqueName(label)) };
}

/**
 * `it` for a role where one owner keeps every other out, and nothing for a shared role (a read
 * lock): a test that cannot apply is not registered rather than skipped.
 */
export function forExclusiveKinds(ctx: SuiteContext): (name: string, fn: () => Promise<void>) => void {
  return ctx.subject.role.exclusive ? (name, fn) => it(name, fn) : () => undefined;
}
