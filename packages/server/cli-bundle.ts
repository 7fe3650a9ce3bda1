import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { build, type OutputFile } from 'esbuild'

/**
 * The `pinfold` command as one bundle (`dist/cli.js` and its `cli-chunk-*.js`), built after the
 * library: Node 20 loads an ES module graph one file at a time (resolve, read, compile, link), and
 * `pinfold serve` imported ~400 files of this workspace and its dependencies, ~0.4 s of a ~1.6 s
 * restart (bench/README.md). The library entry (`dist/index.js`) stays unbundled for embedders, so
 * their dependencies dedupe with their own.
 *
 * What stays outside the bundle is what finds files beside its own module (PGlite's WebAssembly and
 * data, the console's assets, the text-extraction worker, the embedders' word vectors), what is
 * native (sharp, under image-sharp), what is optional (the IPFS node), and the CommonJS packages
 * imported on demand: a bundle gives such an `import()` only the default export, where Node gives
 * the named ones too (`checkNoLazyCommonJs` fails the build on one). Each must be a dependency of
 * this package, so an installed `@pinfold/server` resolves it: the build fails otherwise. Imports
 * the command makes on demand stay on demand (code splitting), so lazy features keep costing
 * nothing until used.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite-pgvector',
  '@pinfold/console',
  '@pinfold/embedders',
  '@pinfold/image-sharp',
  '@pinfold/text-extract',
  // a devDependency: `serve` imports it only when the IPFS node is on, and says how to install it
  '@pinfold/ipfs-network',
  '@pinfold/adapter-s3',
  '@aws-sdk/client-s3',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  'pg',
  'prom-client',
]

export async function bundleCli(): Promise<void> {
  const manifest = JSON.parse(await readFile('package.json', 'utf8')) as Record<string, Record<string, string>>
  const declared = { ...manifest.dependencies, ...manifest.devDependencies }
  const undeclared = EXTERNAL.filter((name) => !(name in declared))
  if (undeclared.length > 0)
    throw new Error(`cli-bundle: externals not declared in package.json: ${undeclared.join(', ')}`)
  const { outputFiles } = await build({
    entryPoints: { cli: 'src/cli.ts' },
    outdir: 'dist',
    chunkNames: 'cli-chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    // esbuild leaves a package's subpaths (`pkg/sub`) outside too
    external: EXTERNAL,
    // bundled CommonJS modules call `require` for Node's built-ins, which an ES module lacks
    banner: {
      js: "import { createRequire as __pinfoldRequire } from 'node:module'; const require = __pinfoldRequire(import.meta.url);",
    },
    logLevel: 'warning',
    write: false,
  })
  checkNoLazyCommonJs(outputFiles)
  await Promise.all(
    outputFiles.map(async (file) => {
      await mkdir(dirname(file.path), { recursive: true })
      await writeFile(file.path, file.contents)
    }),
  )
  // run by its path as well as through npm's bin link (the container image links it onto PATH)
  await chmod('dist/cli.js', 0o755)
}

/**
 * esbuild writes a CommonJS module reached only through `import()` as a chunk of its own whose
 * sole export is `default`, so `(await import('prom-client')).AggregatorRegistry` would be
 * undefined at run time: such a package belongs in EXTERNAL.
 */
function checkNoLazyCommonJs(files: readonly OutputFile[]): void {
  const lazy = files.flatMap((file) => /^export default (require_\w+)\(\);$/m.exec(file.text)?.[1] ?? [])
  if (lazy.length > 0)
    throw new Error(`cli-bundle: CommonJS imported on demand, to add to EXTERNAL: ${lazy.join(', ')}`)
}
