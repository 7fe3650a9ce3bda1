import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

// Every workspace import goes through a package's name: a relative path that leaves its package
// (into another's `src/`, or another's `test/` for a harness) ties the two by a path no manifest
// declares, so neither `pnpm` nor the build order knows about it. Shared test code lives here, in
// @pinfold/testing, and a package whose tests use it lists it as a devDependency.
const root = join(import.meta.dirname, '../../..')

/**
 * The workspace's packages: the folders pnpm-workspace.yaml names (packages/*, examples/*, bench).
 * It also names packages/http/test, http's tests as a project of their own (so that they, not http,
 * depend on this package): its files are http's, and may import http's src/ by a relative path.
 */
const packages = [
  ...['packages', 'examples'].flatMap((parent) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, parent, entry.name)),
  ),
  join(root, 'bench'),
]

/** The package folder holding `path`, if any (the root's shared build config belongs to none). */
const packageOf = (path: string) => packages.find((dir) => !relative(dir, path).startsWith('..'))

const SKIPPED = new Set(['node_modules', 'dist', 'build', 'api-reference'])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(?:[cm]?[jt]s|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** Every `from '…'`, `import '…'`, `import('…')` and `require('…')` specifier, comments left out. */
function specifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|(?<![:'"`])\/\/.*$/gm, '')
  return [...code.matchAll(/(?:\bfrom|^\s*import|\bimport\s*\(|\brequire\s*\()\s*['"]([^'"]+)['"]/gm)].map(
    (match) => match[1]!,
  )
}

describe('workspace imports', () => {
  const files = packages.flatMap((dir) => sourceFiles(dir).map((file) => ({ dir, file })))

  it('finds the sources and tests of every package', () => {
    expect(packages.length).toBeGreaterThan(20)
    expect(files.filter(({ file }) => file.includes(`${sep}test${sep}`)).length).toBeGreaterThan(200)
  })

  it('no file reaches into another package (its src/, its test/) by a relative path', () => {
    const reaching = files.flatMap(({ dir, file }) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => specifier.startsWith('.'))
        .filter((specifier) => {
          const owner = packageOf(resolve(dirname(file), specifier))
          return owner !== undefined && owner !== dir
        })
        .map((specifier) => `${relative(root, file)}: ${specifier}`),
    )
    expect(reaching).toEqual([])
  })
})
