import { describe, expect, it } from 'vitest'
import { mimeTypeAllowed } from '../../src/mime/allowed-mime-types.js'

describe('mimeTypeAllowed', () => {
  it('mimeTypeAllowed - exact types, type/* wildcards and * match files; only "directory" matches a folder', () => {
    expect(mimeTypeAllowed('image/png', ['image/*'])).toBe(true)
    expect(mimeTypeAllowed('image/png', ['IMAGE/PNG'])).toBe(true)
    expect(mimeTypeAllowed('text/plain', ['image/*'])).toBe(false)
    expect(mimeTypeAllowed('text/plain', ['*'])).toBe(true)
    expect(mimeTypeAllowed('directory', ['*', '*/*', 'image/*'])).toBe(false)
    expect(mimeTypeAllowed('directory', ['directory'])).toBe(true)
    expect(mimeTypeAllowed('imagex/png', ['image/*'])).toBe(false)
  })
})
