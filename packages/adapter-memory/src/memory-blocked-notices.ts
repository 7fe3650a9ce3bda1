import type { BlockedNotice } from '@pinfold/interface'

/**
 * Of `given`, the notices not told before (each once), and the keys that mark them told: what
 * `recordBlockedNotices`, a file's arrival (`CreateFileOptions.blockedNotices`) and an operator
 * rule's add (`AddDenyRuleOptions.blockedNotices`) record.
 */
export function newNotices(told: ReadonlySet<string>, given: readonly BlockedNotice[]) {
  const fresh: BlockedNotice[] = []
  const keys = new Set<string>()
  for (const notice of given) {
    const key = JSON.stringify([notice.tenantId, notice.cid, notice.list, notice.line])
    if (told.has(key) || keys.has(key)) continue
    keys.add(key)
    fresh.push(notice)
  }
  return { fresh, keys }
}
