/**
 * Where the page of `size` items that holds item `index` starts, in a list of `total`: an index past
 * the end is the last page's (`Infinity` for "the last page"), an empty list's page starts at 0. A
 * list shown a page at a time keeps its place through this when items go: the offset of a page
 * emptied by a removal becomes the new last page's.
 */
export function pageStart(index: number, size: number, total: number): number {
  if (total <= 0) return 0
  const at = Math.min(Math.max(0, index), total - 1)
  return at - (at % size)
}
