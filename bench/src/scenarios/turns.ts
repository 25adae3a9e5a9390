// Scenarios whose contenders take turns: every contender's session is open at once, and each
// round gives every contender one block of work, so that a machine that drifts during the
// scenario weighs on all of them alike. The counted rounds fall into repetitions, one after the
// other, each with figures of its own: the repetitions interleave across the contenders as the
// blocks do, at no cost beyond the blocks themselves. Scenarios that run one contender at a time
// interleave their repetitions too ({@link oneAfterTheOther}).
import type { Contender } from '../contenders/Contender.js';
import type { Figures } from '../repetitions.js';

/** A contender's figures, one record per repetition, or why it has none. */
export type Outcome = Figures[] | Error;

/** One contender's part in {@link takeTurns}: its state, one block of work, its figures per repetition. */
export interface Turn {
  /** One block; `counted` is false in the warm-up round. */
  block(counted: boolean): Promise<void>;
  /** The figures of the counted blocks since the previous call: one repetition's; the next starts afresh. */
  takeFigures(): Figures;
  close(): Promise<unknown>;
}

/** How many counted rounds {@link takeTurns} runs: `rounds` for each of `repetitions`. */
export interface Rounds {
  readonly rounds: number;
  readonly repetitions: number;
}

/**
 * Opens a turn for every contender, runs one warm-up round and then, per repetition, `rounds`
 * counted rounds after which every contender's figures are taken; then closes them all. A
 * contender that fails to open or throws in a block is out, with its error as its outcome; the
 * others go on.
 */
export async function takeTurns(
  contenders: readonly Contender[],
  { rounds, repetitions }: Rounds,
  open: (contender: Contender) => Promise<Turn>,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  const turns = new Map<string, Turn>();
  try {
    for (const contender of contenders) {
      await open(contender).then(
        (turn) => turns.set(contender.id, turn),
        (error: unknown) => outcomes.set(contender.id, asError(error)),
      );
    }
    const figures = new Map<string, Figures[]>([...turns.keys()].map((id) => [id, []]));
    for (let round = -1; round < rounds * repetitions; round++) {
      for (const [id, turn] of turns) {
        if (outcomes.has(id)) continue;
        await turn.block(round >= 0).catch((error: unknown) => outcomes.set(id, asError(error)));
        if ((round + 1) % rounds === 0 && round >= 0 && !outcomes.has(id)) figures.get(id)?.push(turn.takeFigures());
      }
    }
    for (const [id, taken] of figures) if (!outcomes.has(id)) outcomes.set(id, taken);
  } finally {
    await Promise.allSettled([...turns.values()].map((turn) => turn.close()));
  }
  return outcomes;
}

/**
 * Runs `run` for every contender, one after the other, `repetitions` times over: every
 * contender's first run before any second, so that drift weighs on all alike. A contender whose
 * run throws is out, with the error (and which repetition) as its outcome; the others go on.
 */
export async function oneAfterTheOther(
  contenders: readonly Contender[],
  repetitions: number,
  run: (contender: Contender, repetition: number) => Promise<Figures>,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>(contenders.map((contender) => [contender.id, []]));
  for (let repetition = 1; repetition <= repetitions; repetition++) {
    for (const contender of contenders) {
      const taken = outcomes.get(contender.id);
      if (!Array.isArray(taken)) continue;
      await run(contender, repetition).then(
        (figures) => taken.push(figures),
        (error: unknown) =>
          outcomes.set(
            contender.id,
            repetitions === 1 ? asError(error) : new Error(`in repetition ${repetition}: ${asError(error).message}`),
          ),
      );
    }
  }
  return outcomes;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
