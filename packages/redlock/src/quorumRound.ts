/** What one round of attempts was decided with. */
export interface RoundOutcome<Grant> {
  /** What was granted in time, in the order of the attempts. */
  readonly granted: readonly Grant[];
  /**
   * The attempts that had not answered, or not in time, when the round was decided: each may
   * still grant, and whoever takes the outcome must keep or give back what they grant.
   */
  readonly pending: readonly Promise<Grant | null>[];
  /**
   * Why the attempts that failed (rather than found the lock taken) failed, before the round was
   * decided; one that did not answer in time is among the pending instead.
   */
  readonly errors: readonly unknown[];
}

/**
 * Waits on attempts made in parallel, each resolving what it granted (`null` when the lock is
 * held there by someone else), each for at most `nodeTimeout`, and is decided as soon as `needed`
 * of them granted, or so many failed, timed out or were refused that `needed` can no longer be
 * reached, or `signal` aborts: never later than `nodeTimeout`, however many nodes are dead.
 */
export function quorumRound<Grant>(
  attempts: readonly Promise<Grant | null>[],
  needed: number,
  nodeTimeout: number,
  signal: AbortSignal | undefined,
): Promise<RoundOutcome<Grant>> {
  return new Promise((resolve) => {
    const granted = new Map<number, Grant>();
    const unanswered = new Set(attempts);
    const errors: unknown[] = [];
    let failed = 0;
    let decided = false;
    const decide = () => {
      if (decided) return;
      decided = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', decide);
      const inOrder = [...granted].sort(([a], [b]) => a - b).map(([, held]) => held);
      resolve({ granted: inOrder, pending: [...unanswered], errors });
    };
    const count = (index: number, held: Grant | null) => {
      if (decided) return;
      if (held) granted.set(index, held);
      else failed += 1;
      if (granted.size >= needed || failed > attempts.length - needed) decide();
    };
    // One timer for the round, rather than a timer and a race per attempt (microseconds each, on
    // the client's thread): its attempts were all sent at once. The slow ones fail for this round,
    // which is decided then, and stay pending, since they may still grant.
    const timer = setTimeout(decide, nodeTimeout);
    signal?.addEventListener('abort', decide, { once: true });
    if (signal?.aborted) decide();
    attempts.forEach((grant, index) => {
      grant.then(
        (held) => {
          if (!decided) unanswered.delete(grant);
          count(index, held);
        },
        // Unreachable: a failure for this round.
        (error: unknown) => {
          if (decided) return;
          unanswered.delete(grant);
          errors.push(error);
          count(index, null);
        },
      );
    });
  });
}
