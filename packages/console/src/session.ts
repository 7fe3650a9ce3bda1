/**
 * The credential lives in this tab's sessionStorage only: never in a URL (where logs, history and
 * Referer headers would keep it), gone when the tab closes.
 */
const KEY = 'pinfold.console.token'

export function savedToken(): string | null {
  return sessionStorage.getItem(KEY)
}

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token)
}

/** Signing out also forgets the tus upload URLs kept for resuming (tus-js-client's `tus::` keys). */
export function forgetToken(): void {
  sessionStorage.removeItem(KEY)
  for (const key of Object.keys(localStorage)) if (key.startsWith('tus::')) localStorage.removeItem(key)
}
