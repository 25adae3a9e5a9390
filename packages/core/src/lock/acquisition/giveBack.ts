import type { LockRuntime } from '../../runtime/LockRuntime.js';
import type { Call } from '../../scripts/Command.js';

/**
 * The give-back rules every acquisition shares, locks and semaphores alike: what an attempt took
 * for nobody goes back, by the attempt's hold id, which changes nothing twice and nothing at all
 * when the attempt took nothing.
 */

/**
 * Runs one acquisition attempt. A reply that comes after the call timed out (drivers queue
 * commands while disconnected) took what it took for nobody: when `took` says it took something,
 * it is given back at once.
 */
export function runAttempt<Reply>(
  runtime: LockRuntime,
  attempt: Call<Reply>,
  took: (reply: Reply) => boolean,
  giveBack: () => Promise<void>,
): Promise<Reply> {
  return runtime.run(attempt, (late) => {
    if (took(late)) void giveBack();
  });
}

/**
 * Gives back what an attempt took, where nobody awaits the outcome (see `LockRuntime.giveBack`:
 * sent again while Redis is away and the client open); a failure that ends it is reported as the
 * client's `handledError` event of `name`, never thrown.
 */
export async function giveBackQuietly(runtime: LockRuntime, name: string, release: Call<unknown>): Promise<void> {
  const { events } = runtime;
  await runtime.giveBack(release, (error) => {
    if (events.listening('handledError')) events.emit('handledError', { operation: 'giveBack', name, error });
  });
}

/**
 * An abort that raced a successful attempt still wins: the caller stopped waiting, so the hold
 * goes back rather than being held by nobody who knows it, and this rejects with the signal's
 * reason.
 */
export async function abortWins(signal: AbortSignal | undefined, giveBack: () => Promise<void>): Promise<void> {
  if (!signal?.aborted) return;
  await giveBack();
  signal.throwIfAborted();
}

/**
 * Closed while the acquisition was in flight: nobody would keep the hold alive, so it goes back,
 * and this rejects with `ClientClosedError`.
 */
export async function closedWins(runtime: LockRuntime, giveBack: () => Promise<void>): Promise<void> {
  if (!runtime.closed) return;
  await giveBack();
  runtime.assertOpen();
}

/**
 * With replica sync on (`LockRuntime.confirmReplicas`), waits until replicas have the hold an
 * acquisition of `name` just took, and gives it back when they do not (rejecting with the
 * `ReplicaSyncError`, or the wait's own error), when `signal` aborted meanwhile (rejecting with its
 * reason) or when the client closed meanwhile (`ClientClosedError`): only a hold the replicas
 * have is kept, by a caller still there. Resolves at once, sending nothing, with replica sync off.
 */
export async function confirmOrGiveBack(
  runtime: LockRuntime,
  name: string,
  signal: AbortSignal | undefined,
  giveBack: () => Promise<void>,
): Promise<void> {
  const confirm = runtime.confirmReplicas;
  if (!confirm) return;
  try {
    await confirm(name, 'acquire');
    signal?.throwIfAborted();
  } catch (error) {
    await giveBack();
    throw error;
  }
  // Closed while replicas were being waited for: nobody would keep the hold alive either.
  await closedWins(runtime, giveBack);
}

/**
 * Closed or aborted while the attempt that took a hold was in flight: the caller is gone, so is
 * the hold. Rejects with `ClientClosedError` when the client closed, else with the signal's reason.
 */
export function giveBackIfGone(
  runtime: LockRuntime,
  signal: AbortSignal | undefined,
  giveBack: () => Promise<void>,
): Promise<void> {
  return runtime.closed ? closedWins(runtime, giveBack) : abortWins(signal, giveBack);
}
