import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: { compilerOptions: { composite: false, customConditions: [] } },
  tsconfig: 'tsconfig.build.json',
  clean: true,
  sourcemap: true,
  target: 'node20',
  // A fresh embedded database for `pinfold serve` to copy on its first start: initdb once here
  // rather than in every server's first start, where it would triple the server's peak memory.
  async onSuccess() {
    const { createDatabaseTemplate } = await import('./src/embedded-database.js')
    await createDatabaseTemplate('dist/database-template')
  },
})
