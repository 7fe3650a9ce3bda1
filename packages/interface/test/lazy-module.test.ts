import { describe, expect, it } from 'vitest'
import { lazyModule } from '../src/index.js'

describe('lazyModule', () => {
  it('imports nothing until first asked, then once for every caller', async () => {
    let imports = 0
    const load = lazyModule('counting', async () => {
      imports++
      return { value: 42 }
    })
    expect(imports).toBe(0)
    const [a, b] = await Promise.all([load(), load()])
    expect(await load()).toBe(a)
    expect(b).toBe(a)
    expect(imports).toBe(1)
  })

  it('answers a failed import as UNAVAILABLE naming the feature, the import error only as the cause', async () => {
    const failure = new Error("Cannot find package 'sharp' imported from /srv/pinfold/dist/index.js")
    const load = lazyModule('image transforms', () => Promise.reject(failure))
    const error = await load().catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'PinfoldError',
      code: 'UNAVAILABLE',
      message: 'image transforms: unavailable on this server, a module it needs could not be loaded',
      cause: failure,
    })
    expect((error as Error).message).not.toContain('/srv')
  })

  it('tries the import again after a failure', async () => {
    let attempts = 0
    const load = lazyModule('flaky', async () => {
      if (++attempts === 1) throw new Error('EIO')
      return 'loaded'
    })
    await expect(load()).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    await expect(load()).resolves.toBe('loaded')
    expect(attempts).toBe(2)
  })
})
