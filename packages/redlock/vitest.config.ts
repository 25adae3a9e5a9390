import { packageProject } from '../../vitest.shared';

export default packageProject('redlock', { redis: true });
