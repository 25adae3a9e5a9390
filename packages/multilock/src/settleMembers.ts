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
    timer = setTimeout(() => reject(unanswered(lockName, timeout)), timeout);
  });
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * Runs `operation` on every member at once, each bounded by `timeout` when given, and resolves
 * with the members it failed for once every one has answered or timed out.
 */
export function settleMembers(
  members: readonly HeldLock[],
  operation: (member: HeldLock) => Promise<void>,
  timeout?: number,
): Promise<MemberFailure[]> {
  if (members.length === 0) return Promise.resolve([]);
  return new Promise((resolve) => {
    // Each member's outcome, by index: its failure, or `null` once it succeeded.
    const outcomes = new Map<number, MemberFailure | null>();
    let settled = false;
    const answer = (index: number, outcome: MemberFailure | null) => {
      if (settled || outcomes.has(index)) return;
      outcomes.set(index, outcome);
      if (outcomes.size < members.length) return;
      settled = true;
      clearTimeout(timer);
      resolve(members.flatMap((_member, i) => outcomes.get(i) ?? []));
    };
    // One timer for every member, rather than a timer and a race each (microseconds per member,
    // on the client's thread): their operations all start now.
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => {
            members.forEach((member, index) => answer(index, { member, error: unanswered(member.name, timeout) }));
          }, timeout);
    members.forEach((member, index) => {
      let done: Promise<void>;
      try {
        done = operation(member);
      } catch (error) {
        done = Promise.reject(error);
      }
      done.then(
        () => answer(index, null),
        (error: unknown) => answer(index, { member, error: asLockError(error, member.name) }),
      );
    });
  });
}

function unanswered(lockName: string, timeout: number): RedisUnavailableError {
  return new RedisUnavailableError(`Redis did not answer for lock "${lockName}" within ${timeout} ms`, { lockName });
}

function asLockError(error: unknown, lockName: string): LockError {
  if (error instanceof LockError) return error;
  return new LockError(error instanceof Error ? error.message : String(error), { lockName, cause: error });
}
