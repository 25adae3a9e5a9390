import { packageProject } from '../../vitest.shared';

export default packageProject('testing', { redis: true });
