/**
 * What a model-based run can find wrong. Each category is one invariant of the owner model (see
 * `docs/guides/owner-model.md` and the semantics listed in `README` of this folder).
 */
export type ViolationCategory =
  /** A generated owner id is not of the form `#<n>`, or is not fresh. */
  | 'generated-owner'
  /** A named owner starting with `#` that no live hold uses was accepted. */
  | 'forged-owner-accepted'
  /** A hold's own generated owner, passed back while the hold stands, was refused. */
  | 'reuse-refused'
  /** Two distinct owners (by the model) wrote the same Redis field. */
  | 'owner-collision'
  /** Redis had two distinct owners in an exclusive lock, or a writer with another owner's reader. */
  | 'exclusion'
  /** The hold-interval history has two distinct owners of an exclusive lock overlapping. */
  | 'overlap'
  /** A hold count or a field in Redis differs from the model's. */
  | 'state'
  /** A hold whose signal has not aborted is not held in Redis, or Redis's TTL is shorter than it believes. */
  | 'held'
  /** A hold's signal did not abort after its lease ended or after its lock was taken from it. */
  | 'signal'
  /** An operation's outcome (success, null, error type) differs from what the model allows. */
  | 'outcome'
  /** `extend` did not set the lease as promised (exactly `ms` for an owner's only hold). */
  | 'extend';

/** One invariant found broken at one step. */
export interface Violation {
  readonly category: ViolationCategory;
  readonly message: string;
}

/** Thrown by a model run at the first step that broke an invariant; carries every violation of that step. */
export class ModelViolationError extends Error {
  readonly violations: readonly Violation[];
  readonly trace: readonly string[];

  constructor(violations: readonly Violation[], trace: readonly string[]) {
    const lines = violations.map((violation) => `  [${violation.category}] ${violation.message}`);
    super(
      `model violated at step ${trace.length}:\n${lines.join('\n')}\ntrace (last 40 steps):\n${trace.slice(-40).join('\n')}`,
    );
    this.name = 'ModelViolationError';
    this.violations = violations;
    this.trace = trace;
  }
}

/** Collects violations, leaving out categories the run was told to ignore (`MODEL_IGNORE`). */
export class ViolationLog {
  readonly #ignored: ReadonlySet<ViolationCategory>;
  readonly #found: Violation[] = [];

  constructor(ignored: readonly ViolationCategory[] = []) {
    this.#ignored = new Set(ignored);
  }

  /** Records a violation of `category` unless that category is ignored. */
  add(category: ViolationCategory, message: string): void {
    if (!this.#ignored.has(category)) this.#found.push({ category, message });
  }

  /** Records a violation when `ok` is false. */
  expect(ok: boolean, category: ViolationCategory, message: () => string): void {
    if (!ok) this.add(category, message());
  }

  /** Takes the violations found since the last call. */
  drain(): Violation[] {
    return this.#found.splice(0);
  }
}
