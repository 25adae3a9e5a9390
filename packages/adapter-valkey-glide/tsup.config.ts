import { packageBuild } from '../../tsup.shared';

export default packageBuild();
