import { packageProject } from '../../vitest.shared';

export default packageProject('test-harness', { redis: true });
