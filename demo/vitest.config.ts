import { packageProject } from '../vitest.shared';

export default packageProject('demo', { redis: true });
