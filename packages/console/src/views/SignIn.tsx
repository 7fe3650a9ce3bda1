import { type FormEvent, useState } from 'react'
import { isOperator, type Role } from '../api/admin'
import { createApi } from '../api/client'
import { ErrorNote } from '../components/common'
import { useAction } from '../components/use-action'

/**
 * A token (from `pinfold token`, the server's dev-token file, or an API key's JWT) checked against
 * the server before it is kept.
 */
export function SignIn({
  base,
  notice,
  onSignedIn,
}: {
  base: string
  /** Why the last session ended, if the server ended it. */
  notice: string | null
  onSignedIn(token: string, role: Role): void
}) {
  const [token, setToken] = useState('')
  const { error, setError, busy, run } = useAction()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const value = token.trim()
    if (!value) return setError(new Error('Paste a token or an API key JWT'))
    void run(async () => {
      const api = createApi(base, value)
      // both asked at once: an operator token is refused by the tenant API, a tenant's is a 404 on the admin API
      const [operator, tenant] = await Promise.allSettled([isOperator(api), api.get('v3/data/testAuthentication')])
      if (operator.status === 'fulfilled' && operator.value) return onSignedIn(value, 'operator')
      if (tenant.status === 'rejected') throw tenant.reason
      onSignedIn(value, 'tenant')
    })
  }

  return (
    <main className="signin">
      <h1>Pinfold</h1>
      <form onSubmit={submit} aria-labelledby="signin-title">
        <h2 id="signin-title">Sign in</h2>
        {notice && (
          <p className="error" role="alert">
            {notice}
          </p>
        )}
        <p>
          Paste an API token or an API key's JWT. It is kept in this tab only (session storage) and sent in the{' '}
          <code>Authorization</code> header.
        </p>
        <label htmlFor="token">Token or API key</label>
        <textarea
          id="token"
          name="token"
          rows={4}
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(event) => setToken(event.target.value)}
          aria-describedby="token-help"
        />
        <p id="token-help" className="hint">
          A server started with <code>pinfold serve</code> writes a development token to <code>.pinfold/dev-token</code>
          ; <code>pinfold token</code> mints others.
        </p>
        <ErrorNote error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
