export { checkModel, budgetFromEnv, formatReport, type ModelBudget, type ModelReport } from './runModel.js';
export { MODEL_KINDS, type ModelKind } from './ModelKind.js';
export type { ModelTiming } from './timing.js';
export type { ViolationCategory, Violation } from './Violation.js';
export { checkGroupModel } from './groupModel.js';
export { GROUP_MODEL_KINDS, type GroupKind } from './groupKinds.js';
