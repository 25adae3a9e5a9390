import { packageProject } from '../../vitest.shared';

export default packageProject('cli', { redis: true });
