import { packageBuild } from '../../tsup.package.js'

// the worker thread's entry is a module of its own: dist/extraction-worker.js, loaded by file name
export default packageBuild({ entry: ['src/index.ts', 'src/extraction-worker.ts'] })
