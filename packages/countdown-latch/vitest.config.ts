import { packageProject } from '../../vitest.shared';

export default packageProject('countdown-latch', { redis: true });
