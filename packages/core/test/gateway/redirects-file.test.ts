import { describe, expect, it } from 'vitest'
import { MAX_REDIRECT_RULES, MAX_REDIRECTS_FILE_BYTES, matchRedirect, parseRedirectsFile } from '../../src/index.js'

const EXAMPLES = `# the spec's example site
/redirect-one /one.html
/302-redirect-two /two.html 302
/posts/:year/:month/:day/:title /articles/:year/:month/:day/:title 301
/splat/* /redirected-splat/:splat 301
/not-found/* /404.html 404
/old/:name https://example.net/new/:name?from=:name 308
/* /index.html 200
`

describe('_redirects files', () => {
  const rules = parseRedirectsFile(EXAMPLES)

  it.each([
    ['/redirect-one', { to: '/one.html', status: 301 }],
    ['/redirect-one/', { to: '/one.html', status: 301 }],
    ['/302-redirect-two', { to: '/two.html', status: 302 }],
    ['/posts/2022/01/01/hello-world', { to: '/articles/2022/01/01/hello-world', status: 301 }],
    ['/splat/a/b/c.html', { to: '/redirected-splat/a/b/c.html', status: 301 }],
    ['/not-found/x', { to: '/404.html', status: 404 }],
    ['/old/page', { to: 'https://example.net/new/page?from=page', status: 308 }],
    ['/anything/else', { to: '/index.html', status: 200 }],
  ])('match - %s: the first matching rule, placeholders and splat filled in', (path, expected) => {
    expect(matchRedirect(rules, path)).toEqual(expected)
  })

  it('match - placeholders take one segment each; fewer or more segments fall through to later rules', () => {
    const only = parseRedirectsFile('/posts/:year/:slug /p/:year/:slug\n')
    expect(matchRedirect(only, '/posts/2022')).toBeUndefined()
    expect(matchRedirect(only, '/posts/2022/a/b')).toBeUndefined()
    expect(matchRedirect(only, '/posts/2022/a')).toEqual({ to: '/p/2022/a', status: 301 })
  })

  it('parse - CRLF lines, blank lines, comments and surrounding whitespace', () => {
    const parsed = parseRedirectsFile('\r\n# comment\r\n  /a   /b  \t302 \r\n\r\n/c /d')
    expect(parsed).toEqual([
      { from: ['a'], to: '/b', status: 302 },
      { from: ['c'], to: '/d', status: 301 },
    ])
  })

  it.each([
    ['a forced redirect', '/a /b 301!', /line 1: unsupported redirect status "301!"/],
    ['an unsupported status', '/a /b 418', /unsupported redirect status "418"/],
    ['one field', '/a', /expected "from to \[status\]"/],
    ['four fields', '/a /b 301 extra', /expected/],
    ['a relative from', 'a /b', /"from" must be a path/],
    ['a relative to', '/a b', /"to" must be a path/],
    ['a placeholder used twice', '/:x/:x /b', /used twice/],
    ['a star before the end', '/*/a /b', /only allowed as the last segment/],
    ['a rewrite to another origin', '/a https://example.net/ 200', /another origin/],
  ])('parse - refuses %s, naming the line', (_, text, message) => {
    expect(() => parseRedirectsFile(`# first\n${text.replace('line 1', '')}`)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/^line 2: /) }),
    )
    expect(() => parseRedirectsFile(text)).toThrow(message)
  })

  it('parse - the limits: 64 KiB and 1000 rules', () => {
    const big = `${'#'.repeat(MAX_REDIRECTS_FILE_BYTES)}\n/a /b\n`
    expect(() => parseRedirectsFile(big)).toThrow(/redirects file size cannot exceed 65536 bytes/)
    const many = Array.from({ length: MAX_REDIRECT_RULES + 1 }, (_, i) => `/r${i} /t`).join('\n')
    expect(() => parseRedirectsFile(many)).toThrow(/at most 1000 rules/)
    expect(parseRedirectsFile(many.split('\n').slice(0, MAX_REDIRECT_RULES).join('\n'))).toHaveLength(1000)
  })
})
