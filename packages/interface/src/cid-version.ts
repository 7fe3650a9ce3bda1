/**
 * `v1` = `ipfs add --cid-version=1`; `v0` = plain `ipfs add` (Kubo's defaults);
 * `unixfs-v1-2025` = Kubo's IPIP-499 profile of that name (1 MiB chunks, 1024 links).
 * The importer settings of each profile are core's (`kuboImporterOptions`); this is only the name.
 */
export const CID_VERSIONS = ['v0', 'v1', 'unixfs-v1-2025'] as const
export type CidVersion = (typeof CID_VERSIONS)[number]

export function isCidVersion(value: unknown): value is CidVersion {
  return (CID_VERSIONS as readonly unknown[]).includes(value)
}
