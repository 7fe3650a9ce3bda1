#!/usr/bin/env node
/**
 * The `pinfold` command. This launcher is all that runs before the commands' modules load: it keeps
 * V8's young generation small for the start-up they are (startup-heap.ts), then imports them.
 */
import { holdYoungGeneration } from './startup-heap.js'

holdYoungGeneration()
await import('./commands.js')
