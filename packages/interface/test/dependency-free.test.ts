import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Adapters depend on this package to avoid core's weight: one import of a third-party package or of
// a Node built-in would bring that weight (or a runtime) back to every one of them.
const root = join(import.meta.dirname, '..')

/** Every `from '…'`, `import '…'` and `import('…')` specifier of a source file, comments left out. */
function specifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
  return [...code.matchAll(/(?:\bfrom|^\s*import|\bimport\s*\()\s*['"]([^'"]+)['"]/gm)].map((match) => match[1]!)
}

describe('@pinfold/interface stays dependency-free', () => {
  it('declares no dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(manifest.dependencies).toBeUndefined()
    expect(manifest.peerDependencies).toBeUndefined()
    expect(manifest.optionalDependencies).toBeUndefined()
  })

  it('imports nothing but its own files', () => {
    const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
    expect(files).toContain('index.ts')
    const foreign = files.flatMap((file) =>
      specifiers(readFileSync(join(root, 'src', file), 'utf8'))
        .filter((specifier) => !specifier.startsWith('./') && !specifier.startsWith('../'))
        .map((specifier) => `${file}: ${specifier}`),
    )
    expect(foreign).toEqual([])
  })
})
