import { invalid, parseCid } from '@pinfold/core'

/**
 * The CID segment of a gateway path, parsed; a segment that is no CID is `INVALID_INPUT` worded
 * as the path-gateway spec's implementations word it (`invalid path "/ipfs/…"`), the path as requested.
 */
export function checkedCid(pathname: string, segment: string): ReturnType<typeof parseCid> {
  try {
    return parseCid(decodeSegment(segment))
  } catch (error) {
    throw invalid(`invalid path ${JSON.stringify(pathname)}: ${(error as Error).message}`)
  }
}

export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw invalid('malformed percent-encoding in the path')
  }
}
