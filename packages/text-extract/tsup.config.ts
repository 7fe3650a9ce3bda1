import { defineConfig } from 'tsup'

export default defineConfig({
  // the worker thread's entry is a module of its own: dist/extraction-worker.js, loaded by file name
  entry: ['src/index.ts', 'src/extraction-worker.ts'],
  format: ['esm'],
  dts: { compilerOptions: { composite: false, customConditions: [] } },
  tsconfig: 'tsconfig.build.json',
  clean: true,
  sourcemap: true,
  target: 'node20',
})
