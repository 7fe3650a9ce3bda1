#!/usr/bin/env node
// What installing a workspace package costs: the third-party packages in its production dependency
// closure (following the @pinfold/* packages it depends on) and their apparent size on disk.
// Used to keep the tables of docs/architecture.md true: `node scripts/package-weight.mjs @pinfold/http`.
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

function apparentSize(dir) {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue
    const path = join(dir, entry.name)
    total += entry.isDirectory() ? apparentSize(path) : lstatSync(path).size
  }
  return total
}

for (const name of process.argv.slice(2)) {
  const listing = execFileSync(
    'npx',
    ['-y', 'pnpm@12.21.0', 'list', '--prod', '--depth', 'Infinity', '--json', '--filter', name],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 },
  )
  const seen = new Map()
  const walk = (dependencies = {}) => {
    for (const [dependency, info] of Object.entries(dependencies)) {
      if (!info.path || seen.has(info.path)) continue
      seen.set(info.path, dependency)
      walk(info.dependencies)
    }
  }
  for (const root of JSON.parse(listing)) walk(root.dependencies)
  // optional packages for other platforms are listed but not installed: they cost nothing here
  const thirdParty = [...seen].filter(([path, dependency]) => !dependency.startsWith('@pinfold/') && existsSync(path))
  const bytes = thirdParty.reduce((sum, [path]) => sum + apparentSize(path), 0)
  const workspace = [...new Set([...seen.values()].filter((d) => d.startsWith('@pinfold/')))].sort()
  console.log(
    `${name}: ${thirdParty.length} third-party packages, ${(bytes / 1e6).toFixed(1)} MB; ${workspace.join(' ') || 'no workspace package'}`,
  )
}
