import { setFlagsFromString } from 'node:v8'

const GROWTH_FLAG = '--semi-space-growth-factor'
/** V8's default (Node 20 to 24). */
const DEFAULT_GROWTH = 2
let held = false

/**
 * Keeps V8's young generation at its initial size until `releaseYoungGeneration`: `pinfold serve`
 * holds it from the first line of the CLI until it listens; the other commands release it at once.
 *
 * V8 doubles the young generation (two semi-spaces, up to 2 × 16 MB) each time many objects survive
 * a scavenge, as they do while start-up loads the modules and opens the database, and the grown
 * space stays committed until V8's memory reducer finds the process idle, 10–20 s later: an idle
 * server just started held ~30 MB of young generation it had no use for. Start-up's survivors live
 * as long as the process anyway, so they lose nothing by going to the old generation at once.
 * Afterwards the young generation grows again for the garbage of uploads and requests, as it did
 * (a smaller `--max-semi-space-size` for the whole run would cost the upload path: bench/README.md).
 *
 * Left alone when the operator gave node the flag (Node refuses it in `NODE_OPTIONS`).
 */
export function holdYoungGeneration(): void {
  if (held || process.execArgv.some((arg) => arg.startsWith(GROWTH_FLAG))) return
  setFlagsFromString(`${GROWTH_FLAG}=1`)
  held = true
}

/** Lets the young generation grow again as V8 grows it by default. */
export function releaseYoungGeneration(): void {
  if (!held) return
  setFlagsFromString(`${GROWTH_FLAG}=${DEFAULT_GROWTH}`)
  held = false
}
