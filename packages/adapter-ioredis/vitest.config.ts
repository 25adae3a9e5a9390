import { packageProject } from '../../vitest.shared';

export default packageProject('adapter-ioredis');
