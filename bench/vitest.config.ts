import { packageProject } from '../vitest.shared';

export default packageProject('bench', { redis: true });
