import { packageBuild } from '../../tsup.package.js'

// built for Node 20 like every package (its `engines`): the module imports there, and only
// startIpfsNode, which libp2p and Helia need Node 22 for, refuses it (src/node-version.ts)
export default packageBuild()
