export { valkeyGlideExecutor } from './valkeyGlideExecutor.js';
export type { ValkeyGlideExecutorOptions } from './valkeyGlideExecutor.js';
export type { ValkeyGlideClient, ValkeyGlideConnection } from './clientTypes.js';
