import { useCallback, useState } from 'react'
import type { Api } from '../../api/client'
import type { Schemas } from '../../api/wire'
import { useOffsetPages } from '../Pager'
import { pageStart } from '../paging'
import { useAction } from '../use-action'
import { useLoad } from '../use-load'

/** A rule of a deny list the console edits: the operator's (`DenyRule`) and a tenant's (`GatewayDenyRule`) alike. */
export type DenyRule = Schemas['DenyRule'] | Schemas['GatewayDenyRule']

const PAGE_SIZE = 20

/**
 * A deny list at `path` (`admin/v1/deny-rules`, `v3/gateways/deny_rules`): its rules, oldest first
 * as the API lists them (later lines win), shown a page at a time; add and remove. The API answers
 * the whole list (at most 10,000 rules), so the pages are cut here.
 */
export function useDenyRules(api: Api, path: string) {
  const [rules, setRules] = useState<DenyRule[] | null>(null)
  const { error, setError, done, setDone, run } = useAction()
  const pages = useOffsetPages(PAGE_SIZE)

  const load = useLoad(
    useCallback(async () => {
      const listed = (await api.get<{ data: { rules: DenyRule[] } }>(path)).data.rules
      setRules(listed)
      return listed
    }, [api, path]),
    setError,
  )

  /** Adds a line; the server's 400 (what is wrong with it) is thrown for the form to show. */
  const add = async (rule: string) => {
    setDone(null)
    const { data } = await api.send<{ data: DenyRule }>('POST', path, { rule })
    setDone(`Added ${data.rule}: it applies from the next request.`)
    // the new rule is the last line: show its page
    const listed = await load()
    if (listed) pages.goTo(Number.POSITIVE_INFINITY, listed.length)
  }

  const remove = (target: DenyRule) =>
    run(async () => {
      await api.send('DELETE', `${path}/${encodeURIComponent(target.id)}`)
      setDone(`Removed ${target.rule}.`)
      await load()
    })

  const total = rules?.length ?? 0
  // a removal may have emptied the page shown: the last page is shown instead
  const offset = pageStart(pages.offset, PAGE_SIZE, total)
  const page = rules?.slice(offset, offset + PAGE_SIZE) ?? null
  return {
    /** The rules of the page shown; null until the first answer. */
    page,
    pager: {
      offset,
      shown: page?.length ?? 0,
      total,
      onPrevious: () => pages.goTo(offset - PAGE_SIZE, total),
      onNext: () => pages.goTo(offset + PAGE_SIZE, total),
    },
    error,
    done,
    add,
    remove,
  }
}
