import { packageProject } from '../../vitest.shared';

export default packageProject('rwlock', { redis: true });
