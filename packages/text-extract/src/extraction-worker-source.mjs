// The extraction worker when the package runs from its sources (vitest, `tsx --conditions=source`):
// Node 20 cannot load `extraction-worker.ts` in a worker thread by itself, and a worker does not
// inherit the loader hooks of its parent, so tsx loads it here. The built package uses
// `dist/extraction-worker.js` and never this file.
import { tsImport } from 'tsx/esm/api'

const worker = await tsImport('./extraction-worker.ts', import.meta.url)
export default worker.default
