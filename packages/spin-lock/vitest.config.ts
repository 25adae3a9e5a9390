import { packageProject } from '../../vitest.shared';

export default packageProject('spin-lock', { redis: true });
