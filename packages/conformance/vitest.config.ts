import { packageProject } from '../../vitest.shared';

export default packageProject('conformance', { redis: true });
