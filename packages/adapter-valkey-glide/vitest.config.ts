import { packageProject } from '../../vitest.shared';

export default packageProject('adapter-valkey-glide', { redis: true });
