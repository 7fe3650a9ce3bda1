import { packageBuild } from '../../tsup.package.js'

// libp2p and Helia need Node 22 (Promise.withResolvers and more)
export default packageBuild({ target: 'node22' })
