#!/usr/bin/env node
/**
 * The `pinfold` command. This launcher is all that runs before the commands' modules load: it keeps
 * V8's young generation small for the start-up they are (startup-heap.ts), starts compiling the
 * embedded database's WebAssembly for `serve` (embedded-database-wasm.ts), then imports them.
 */
import { compileAheadForServe } from './embedded-database-wasm.js'
import { holdYoungGeneration } from './startup-heap.js'

holdYoungGeneration()
compileAheadForServe(process.argv.slice(2), process.env)
await import('./commands.js')
