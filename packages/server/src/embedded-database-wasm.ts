import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import type { PGliteOptions } from '@electric-sql/pglite'

type CompiledWasm = NonNullable<PGliteOptions['pgliteWasmModule']>
/** Node's global; the workspace's libraries (ES2023, node) declare no WebAssembly types. */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> }

/**
 * PGlite's WebAssembly (9 MB), compiled while `pinfold serve` loads the server's modules instead of
 * after them: V8 compiles WebAssembly on background threads, so on a machine with a second core the
 * compile costs the restart nothing, where PGlite compiling it at open added ~100–250 ms.
 */
let ahead: Promise<CompiledWasm> | undefined

/**
 * Starts compiling when the command line and environment name the embedded database: `serve`, not
 * a worker of `--workers N` (its primary owns the database), no `DATABASE_URL`, not memory storage.
 * A configuration file can still choose otherwise; `serve` calls `dropCompiledAhead` once it knows.
 */
export function compileAheadForServe(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  if (argv[0] !== 'serve' || env.NODE_UNIQUE_ID !== undefined || env.DATABASE_URL || env.PINFOLD_STORAGE === 'memory')
    return
  ahead ??= compilePglite()
  // a failure is PGlite's to report when it opens (it compiles the module itself then)
  ahead.catch(() => {})
}

/** The server does not open the embedded database after all: the compiled module is left to the collector. */
export function dropCompiledAhead(): void {
  ahead = undefined
}

/**
 * The module compiled ahead, once (the database it opens holds it afterwards); undefined when none
 * was, or its compile failed, and PGlite compiles (and caches) its own.
 */
export async function takeCompiledAhead(): Promise<CompiledWasm | undefined> {
  const compiled = ahead
  ahead = undefined
  return compiled?.catch(() => undefined)
}

/**
 * V8 compiles WebAssembly with its baseline compiler (Liftoff) first and recompiles hot functions
 * with TurboFan, keeping both: for PGlite's 9 MB module that is ~50–100 MB of machine code, growing
 * as queries run. Liftoff alone keeps ~10 MB and measured no slower here on the record store's
 * queries (bench/README.md), where the time goes to crossing into WebAssembly and the protocol, not
 * to compiled code quality. Set before PGlite's module is compiled; it only concerns WebAssembly,
 * and only modules compiled afterwards.
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString('--liftoff-only')
}

async function compilePglite(): Promise<CompiledWasm> {
  useBaselineWasmCompiler()
  // the package exports no pglite.wasm; its entry point is <package>/dist/index.cjs, next to it
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  return WebAssembly.compile(await readFile(join(dirname(entry), 'pglite.wasm')))
}
