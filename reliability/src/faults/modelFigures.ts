import { budgetFromEnv, type ModelBudget } from '@deadbolt/conformance/model';
import type { Figures } from '../results/figures.js';
import type { InjectionCounts } from './modelFaults.js';

/**
 * The budget of model runs with injected faults: `defaults`, or `MODEL_FAULT_RUNS` and
 * `MODEL_FAULT_STEPS` (`MODEL_RUNS` and `MODEL_STEPS` set the plain runs' budget); `FC_SEED`
 * and `FC_PATH` replay a failure as for the others.
 */
export function faultyBudget(
  defaults: { runs: number; steps: number },
  env: NodeJS.ProcessEnv = process.env,
): ModelBudget {
  return budgetFromEnv(defaults, {
    ...env,
    MODEL_RUNS: env['MODEL_FAULT_RUNS'],
    MODEL_STEPS: env['MODEL_FAULT_STEPS'],
  });
}

/** Which model runs a file registers: `MODEL_FAULTS=1` only those with injected faults, `0` only those without, unset both. */
export function modelRunsWanted(env: NodeJS.ProcessEnv = process.env): {
  readonly plain: boolean;
  readonly faulty: boolean;
} {
  const wanted = env['MODEL_FAULTS'];
  return { plain: wanted !== '1', faulty: wanted !== '0' };
}

/** The figures of a model check's injected faults: each fault by type, the late deliveries and the re-sends. */
export function faultFigures(injected: InjectionCounts | undefined): Partial<Figures> {
  if (injected === undefined) return {};
  return {
    faults: {
      ...(injected.late === 0 ? {} : { 'request held and delivered late': injected.late }),
      ...(injected.cut === 0 ? {} : { 'request cut, then partitioned past its records': injected.cut }),
    },
    lateDeliveries: injected.delivered,
    lateResends: injected.resent,
  };
}
