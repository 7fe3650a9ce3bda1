/**
 * libp2p and Helia call `Promise.withResolvers` (Node.js 22) as soon as the node starts. The package
 * installs and imports on the Node.js the rest of Pinfold supports (20.19+, its `engines`), so that
 * installing the repository or `@pinfold/server` with this optional peer on Node 20 is quiet; the
 * node itself says what it needs when it is started, before it builds anything.
 */
export const IPFS_NODE_MIN_NODE_MAJOR = 22

/** Throws, naming both versions, when `version` (default: this process's) cannot run the node. */
export function checkNodeVersion(version: string = process.versions.node): void {
  if (Number(version.split('.')[0]) >= IPFS_NODE_MIN_NODE_MAJOR) return
  throw new Error(
    `@pinfold/ipfs-network's node needs Node.js ${IPFS_NODE_MIN_NODE_MAJOR} or later (libp2p uses Promise.withResolvers); ` +
      `this is Node.js ${version}. Run it on Node ${IPFS_NODE_MIN_NODE_MAJOR}+.`,
  )
}
