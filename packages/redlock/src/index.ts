export { quorum, validityTime } from './quorum.js';
