import { packageProject } from '../../vitest.shared';

export default packageProject('semaphore', { redis: true });
