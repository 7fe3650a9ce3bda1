import type { FileService, GatewayRoot } from '@pinfold/core'
import { contentDisposition, GATEWAY_SECURITY_HEADERS, notModified, toStream } from './responses.js'

/**
 * `?format=tar` or `Accept: application/x-tar` (path gateway spec): the file or directory tree as
 * a tar stream, always an attachment. The ETag is weak: the archive is derived from the DAG, and
 * another tar writer could frame the same tree in other bytes.
 */
export async function tarResponse(
  request: Request,
  root: GatewayRoot,
  path: string[],
  common: Record<string, string>,
  filename: string | undefined,
  service: FileService,
): Promise<Response> {
  const tar = await service.gateway.tar(root, path, { signal: request.signal })
  const etag = `W/"${tar.terminal}.x-tar"`
  const headers = new Headers({
    ...GATEWAY_SECURITY_HEADERS,
    ...common,
    'x-ipfs-roots': [root.requested, ...tar.roots.slice(1)].join(','),
    etag,
    'content-type': 'application/x-tar',
    'content-disposition': contentDisposition('attachment', filename ?? `${tar.terminal}.tar`),
    'accept-ranges': 'none',
  })
  const unchanged = notModified(request, etag)
  if (unchanged || request.method === 'HEAD') {
    await tar.stream.return(undefined)
    return new Response(null, { status: unchanged ? 304 : 200, headers })
  }
  return new Response(toStream(tar.stream), { status: 200, headers })
}
