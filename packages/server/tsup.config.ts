import { packageBuild } from '../../tsup.package.js'

export default packageBuild({
  entry: ['src/index.ts'],
  async onSuccess() {
    // `dist/cli.js`, bundled (cli-bundle.ts says why), once the library's files are in place
    const { bundleCli } = await import('./cli-bundle.js')
    await bundleCli()
    // A fresh embedded database for `pinfold serve` to copy on its first start: initdb once here
    // rather than in every server's first start, where it would triple the server's peak memory.
    const { createDatabaseTemplate } = await import('./src/embedded-database.js')
    await createDatabaseTemplate('dist/database-template')
  },
})
