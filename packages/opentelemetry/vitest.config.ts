import { packageProject } from '../../vitest.shared';

export default packageProject('opentelemetry', { redis: true });
