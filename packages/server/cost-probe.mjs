// throwaway: heap and RSS a module adds to a bare Node (run with --expose-gc)
const spec = process.argv[2]
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(require_fs().readFileSync('/proc/self/status', 'utf8'))[1]) / 1024
import * as fs from 'node:fs'
function require_fs() { return fs }
gc(); gc()
const before = { heap: process.memoryUsage().heapUsed / 2 ** 20, rss: rss() }
const t = performance.now()
if (spec !== 'none') for (const s of spec.split(',')) await import(s)
const ms = performance.now() - t
gc(); gc()
const after = { heap: process.memoryUsage().heapUsed / 2 ** 20, rss: rss() }
console.log(`${spec}: heap +${(after.heap - before.heap).toFixed(1)} MiB, rss +${(after.rss - before.rss).toFixed(1)} MiB, ${ms.toFixed(0)} ms`)
