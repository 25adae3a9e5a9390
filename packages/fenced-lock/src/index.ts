export { fencingTokenKey } from './fencingTokenKey.js';
