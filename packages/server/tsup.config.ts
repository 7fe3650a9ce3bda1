import { packageBuild } from '../../tsup.package.js'

export default packageBuild({
  entry: ['src/index.ts', 'src/cli.ts'],
  // A fresh embedded database for `pinfold serve` to copy on its first start: initdb once here
  // rather than in every server's first start, where it would triple the server's peak memory.
  async onSuccess() {
    const { createDatabaseTemplate } = await import('./src/embedded-database.js')
    await createDatabaseTemplate('dist/database-template')
  },
})
