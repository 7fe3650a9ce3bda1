import type { ReactNode } from 'react'
import { formatDate } from '../../format'
import { ConfirmButton } from '../common'
import { type Column, type OffsetPagerProps, PagedTable } from '../Pager'
import type { DenyRule } from './use-deny-rules'

/** A page of a deny list's rules, each with its line (later lines win) and a confirmed Remove. */
export function DenyRuleTable({
  caption,
  rules,
  pager,
  empty,
  onRemove,
}: {
  caption: string
  rules: DenyRule[] | null
  pager: OffsetPagerProps
  empty: ReactNode
  onRemove(rule: DenyRule): void
}) {
  const columns: Column<DenyRule>[] = [
    { label: 'Line', cell: (entry) => entry.line },
    { label: 'Rule', className: 'mono break', cell: (entry) => entry.rule },
    { label: 'Added', cell: (entry) => <time dateTime={entry.created_at}>{formatDate(entry.created_at)}</time> },
    {
      label: 'Action',
      cell: (entry) => <ConfirmButton label="Remove" what={entry.rule} onConfirm={() => onRemove(entry)} />,
    },
  ]
  return (
    <PagedTable
      caption={caption}
      columns={columns}
      rows={rules}
      rowKey={(entry) => entry.id}
      empty={empty}
      pager={pager.total > 0 ? pager : null}
    />
  )
}
