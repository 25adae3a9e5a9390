export { ioredisExecutor } from './ioredisExecutor.js';
export type { IoredisExecutorOptions } from './ioredisExecutor.js';
