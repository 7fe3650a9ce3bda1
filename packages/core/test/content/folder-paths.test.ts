import { describe, expect, it } from 'vitest'
import { FolderPaths } from '../../src/content/unixfs/folder-import.js'

describe('FolderPaths', () => {
  it('add - accepts relative paths under one top directory and refuses the rest with INVALID_INPUT', () => {
    const paths = new FolderPaths()
    expect(paths.add('top/a.txt')).toBe('top/a.txt')
    expect(paths.add('top/sub/b.txt')).toBe('top/sub/b.txt')
    for (const bad of [
      'top/a.txt',
      'other/c.txt',
      'top/../x',
      'top/./x',
      '/top/x',
      'top//x',
      'top/sub',
      'loose',
      'top\\x',
    ]) {
      expect(() => paths.add(bad), bad).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    }
  })
})
