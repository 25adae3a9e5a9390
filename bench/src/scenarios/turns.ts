// Scenarios whose contenders take turns: every contender's session is open at once, and each
// round gives every contender one block of work, so that a machine that drifts during the
// scenario weighs on all of them alike.
import type { Contender } from '../contenders/Contender.js';

/** A contender's figures, or why it has none. */
export type Outcome = Record<string, number> | Error;

/** One contender's part in {@link takeTurns}: its state, one block of work, its figures at the end. */
export interface Turn {
  /** One block; `counted` is false in the warm-up round. */
  block(counted: boolean): Promise<void>;
  figures(): Record<string, number>;
  close(): Promise<unknown>;
}

/**
 * Opens a turn for every contender, runs one warm-up round and `rounds` counted rounds, then
 * closes them all. A contender that fails to open or throws in a block is out, with its error as
 * its outcome; the others go on.
 */
export async function takeTurns(contenders: readonly Contender[], rounds: number, open: (contender: Contender) => Promise<Turn>): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const turns = new Map<string, Turn>();
  try {
    for (const contender of contenders) {
      await open(contender).then(
        (turn) => turns.set(contender.id, turn),
        (error: unknown) => outcomes.set(contender.id, asError(error)),
      );
    }
    for (let round = -1; round < rounds; round++) {
      for (const [id, turn] of turns) {
        if (outcomes.has(id)) continue;
        await turn.block(round >= 0).catch((error: unknown) => outcomes.set(id, asError(error)));
      }
    }
    for (const [id, turn] of turns) if (!outcomes.has(id)) outcomes.set(id, turn.figures());
  } finally {
    await Promise.allSettled([...turns.values()].map((turn) => turn.close()));
  }
  return outcomes;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
