import { packageProject } from '../../vitest.shared';

export default packageProject('nestjs', { redis: true });
