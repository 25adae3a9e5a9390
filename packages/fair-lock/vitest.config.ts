import { packageProject } from '../../vitest.shared';

export default packageProject('fair-lock', { redis: true });
