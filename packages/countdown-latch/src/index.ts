export { CountDownLatch, type LatchAwaitOptions } from './CountDownLatch.js';
export { latchChannelName } from './latchKeys.js';
