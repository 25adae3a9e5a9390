import { packageProject } from '../vitest.shared';

export default packageProject('examples', { redis: true, timeoutMs: 90_000 });
