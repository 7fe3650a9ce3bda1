import { packageBuild } from '../../tsup.package.js'

export default packageBuild({
  // typebox ships as 709 small files, and Node's ESM loader opens every file of an import graph at
  // once: with typebox external a server died at start-up under `ulimit -n 256` (EMFILE). Bundled,
  // it is one file among a few dozen (test/built-module-graph.test.ts). The declarations still name
  // the typebox package, which stays a dependency.
  noExternal: ['typebox'],
})
