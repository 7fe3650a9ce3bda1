import { type ReactNode, useState } from 'react'
import { pageStart } from './paging'

/** Previous / next over opaque page tokens: the tokens of the pages seen are kept to go back. */
export function usePages() {
  const [tokens, setTokens] = useState<string[]>([''])
  return {
    token: tokens[tokens.length - 1]!,
    page: tokens.length,
    next: (token: string) => setTokens((seen) => [...seen, token]),
    previous: () => setTokens((seen) => (seen.length > 1 ? seen.slice(0, -1) : seen)),
    reset: () => setTokens(['']),
  }
}

/** Previous / next over a list whose total is known (an offset API, or a whole list shown a page at a time). */
export function useOffsetPages(size: number) {
  const [offset, setOffset] = useState(0)
  return {
    offset,
    size,
    /** To the page that holds the item at `index` (the last page: `Infinity`); 0 is the first page. */
    goTo: (index: number, total: number) => setOffset(pageStart(index, size, total)),
    previous: () => setOffset((at) => Math.max(0, at - size)),
    next: () => setOffset((at) => at + size),
    reset: () => setOffset(0),
  }
}

/**
 * The pager under a list: a page number over opaque tokens (`page`, `nextToken`), or a range of a
 * known total (`offset`, `shown`, `total`: "21–40 of 57").
 */
export type PagerProps = TokenPagerProps | OffsetPagerProps
export type TokenPagerProps = { page: number; nextToken: string; onPrevious(): void; onNext(token: string): void }
export type OffsetPagerProps = { offset: number; shown: number; total: number; onPrevious(): void; onNext(): void }

export function Pager(props: PagerProps) {
  const tokens = 'page' in props
  const where = tokens
    ? `Page ${props.page}`
    : props.total === 0
      ? 'None'
      : `${props.offset + 1}–${props.offset + props.shown} of ${props.total}`
  const first = tokens ? props.page === 1 : props.offset === 0
  const last = tokens ? !props.nextToken : props.offset + props.shown >= props.total
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={() => props.onPrevious()} disabled={first}>
        Previous
      </button>
      <span>{where}</span>
      <button type="button" onClick={() => (tokens ? props.onNext(props.nextToken) : props.onNext())} disabled={last}>
        Next
      </button>
    </nav>
  )
}

/** One column of a `PagedTable`: its header, and what a row shows under it. */
export interface Column<Row> {
  label: string
  cell(row: Row): ReactNode
  /** The cell's class (`break`, `mono truncate`). */
  className?: string
  /** The cell's tooltip: its whole text where the cell cuts it short. */
  title?(row: Row): string
}

/**
 * A page of a list as a table (rows become cards on a phone: each cell labelled by its column), the
 * text for an empty list, and the pager under it. `rows` is null until the first answer.
 */
export function PagedTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  pager,
  loading = false,
  className,
  tableClassName,
}: {
  /** The table's accessible name (visually hidden: the view's heading says it). */
  caption: string
  columns: Column<Row>[]
  rows: Row[] | null
  rowKey(row: Row): string
  /** What an empty list shows: a sentence, or what to do about it. */
  empty: ReactNode
  /** The Pager's props; none where the list is one page by nature. */
  pager?: PagerProps | null
  loading?: boolean
  className?: string
  /** Added to `cards` on the table (a view's own column styles). */
  tableClassName?: string
}) {
  return (
    <div className={className} aria-busy={loading}>
      {rows && rows.length === 0 && empty}
      {rows && rows.length > 0 && (
        <table className={tableClassName ? `cards ${tableClassName}` : 'cards'}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column.label}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td
                    key={column.label}
                    data-label={column.label}
                    className={column.className}
                    title={column.title?.(row)}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows && pager && <Pager {...pager} />}
    </div>
  )
}
