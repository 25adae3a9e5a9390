import { packageProject } from '../vitest.shared';

export default packageProject('docs', { redis: true, timeoutMs: 90_000 });
