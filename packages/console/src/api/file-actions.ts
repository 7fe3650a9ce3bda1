import type { Api } from './client'
import type { FileItem, Network } from './types'

/** A link to a CID's bytes that needs no token, valid `expires` seconds (the download-link API). */
export async function signedLink(api: Api, cid: string, expires: number): Promise<string> {
  const { data } = await api.send<{ data: string }>('POST', 'v3/files/private/download_link', {
    url: `${api.base}files/${cid}`,
    expires,
    date: Math.floor(Date.now() / 1000),
    method: 'GET',
  })
  return data
}

/** The public gateway's URL of a CID on the API's own host. */
export const gatewayUrl = (api: Api, cid: string) => `${api.base}ipfs/${cid}`

/**
 * A URL a page element can load without the token: the public gateway for public files (nothing to
 * sign), a signed link for private ones.
 */
export async function contentUrl(api: Api, network: Network, file: FileItem, expires: number): Promise<string> {
  return network === 'public' ? gatewayUrl(api, file.cid) : signedLink(api, file.cid, expires)
}

/**
 * Puts a file into a group (which takes it out of any other: a file is in one group at most) or,
 * with `null`, out of the group it is in.
 */
export async function moveToGroup(api: Api, network: Network, file: FileItem, groupId: string | null): Promise<void> {
  if (groupId === file.group_id) return
  if (groupId) await api.send('PUT', `v3/groups/${network}/${groupId}/ids/${file.id}`)
  else if (file.group_id) await api.send('DELETE', `v3/groups/${network}/${file.group_id}/ids/${file.id}`)
}
