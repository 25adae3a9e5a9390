import { LockError, RedisUnavailableError, type HeldLock } from '@deadbolt/core';
import type { MemberFailure } from './LockGroupError.js';

/**
 * `promise`, or a rejection with a {@link RedisUnavailableError} once `timeout` ms pass first
 * (never, when `timeout` is `undefined`). The call behind `promise` goes on; a rejection it ends
 * with after the timeout is dropped. For lock group authors.
 */
export function withTimeout<T>(promise: Promise<T>, timeout: number | undefined, lockName: string): Promise<T> {
  if (timeout === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new RedisUnavailableError(`Redis did not answer for lock "${lockName}" within ${timeout} ms`, { lockName }),
        ),
      timeout,
    );
  });
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * Runs `operation` on every member at once, each bounded by `timeout` when given, and resolves
 * with the members it failed for once every one has answered or timed out.
 */
export async function settleMembers(
  members: readonly HeldLock[],
  operation: (member: HeldLock) => Promise<void>,
  timeout?: number,
): Promise<MemberFailure[]> {
  const outcomes = await Promise.all(
    members.map(async (member): Promise<MemberFailure | undefined> => {
      try {
        await withTimeout(operation(member), timeout, member.name);
        return undefined;
      } catch (error) {
        return { member, error: asLockError(error, member.name) };
      }
    }),
  );
  return outcomes.filter((outcome) => outcome !== undefined);
}

function asLockError(error: unknown, lockName: string): LockError {
  if (error instanceof LockError) return error;
  return new LockError(error instanceof Error ? error.message : String(error), { lockName, cause: error });
}
