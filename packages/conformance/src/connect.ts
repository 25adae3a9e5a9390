// The part of the conformance package that child processes and benchmarks use: connecting to a
// backend. It loads no test runner.
export * from './backends/index.js';
export { startChildSession, type ChildJob, type ChildSession } from './child/childSession.js';
