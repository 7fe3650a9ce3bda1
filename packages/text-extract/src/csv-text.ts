import { PinfoldError } from '@pinfold/interface'
import { parse } from 'csv-parse/sync'

/** One line per row, cells joined by ", "; empty cells and empty rows are dropped. */
export function csvToText(csv: string, delimiter: ',' | '\t'): string {
  let rows: string[][]
  try {
    rows = parse(csv, { delimiter, bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true })
  } catch (err) {
    throw new PinfoldError('INVALID_INPUT', `cannot extract text from CSV: ${(err as Error).message}`, { cause: err })
  }
  return rows
    .map((row) => row.map((cell) => cell.trim()).filter((cell) => cell !== ''))
    .filter((cells) => cells.length > 0)
    .map((cells) => cells.join(', '))
    .join('\n')
}
