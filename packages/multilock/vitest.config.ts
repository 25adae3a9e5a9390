import { packageProject } from '../../vitest.shared';

export default packageProject('multilock', { redis: true });
