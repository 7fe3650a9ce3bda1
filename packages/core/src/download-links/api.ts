/** `FileService.downloadLinks`: the contract (its operations are in `download-links.ts`). */

import type { Actor, CallOptions, FileRecord } from '@pinfold/interface'

export interface DownloadLinkRequest {
  /** Any URL whose path holds `/files/<cid>` (or `/ipfs/<cid>`); its host is ignored. */
  url: string
  /** Seconds the link stays valid after `date`: an integer or its decimal text, 1 to one year. */
  expires: number | string
  /** Unix seconds the validity starts at (an integer or its decimal text); default now. */
  date?: number | string | null | undefined
  /** Only `GET` (any case) can be signed; default `GET`. */
  method?: string | undefined
}

/** The file a valid download link opens, and the moment the link stops being valid. */
export interface OpenedDownloadLink {
  file: FileRecord
  expiresAt: Date
}

export interface DownloadPresignOptions extends CallOptions {
  /** A full `Content-Disposition` value for the blob store to answer with. */
  contentDisposition?: string | undefined
}

export interface DownloadLinkOperations {
  /**
   * Signs a link `<base>/files/<cid>?X-…&X-Signature=…` to one of the actor's files (private
   * network first). `base` is `baseUrl`, the API's public URL, unless the request's `url` names
   * another host: then that host must be one of the actor's active gateways (a dedicated name or a
   * verified custom domain) and the link is on it. The `img-*` parameters of `url` are carried into
   * the link, under the signature. The signature covers the tenant, so a link proves whose file it
   * opens. `INVALID_INPUT`: a bad url, method, expires or date (a date more than five minutes
   * ahead), or a host that is not the actor's gateway. `NOT_FOUND`: the actor holds no unexpired
   * file with that CID. `UNAVAILABLE` without a signing secret.
   */
  create(
    actor: Actor,
    request: DownloadLinkRequest,
    baseUrl: string,
    options?: CallOptions & {
      /** Host names that are the API's own (links on them use `baseUrl`). */
      ownHostnames?: readonly string[] | undefined
    },
  ): Promise<string>

  /**
   * Checks the query of a link for `/files/<cid>` and returns the tenant's file it opens.
   * `FORBIDDEN`: an unsigned, tampered, malformed or expired link. `NOT_FOUND`: the file is gone.
   * `UNAVAILABLE` without a signing secret.
   */
  open(cid: string, params: URLSearchParams, options?: CallOptions): Promise<OpenedDownloadLink>

  /**
   * A URL of the blob store itself (S3) for the file an opened link names, to redirect the client
   * to: valid while the link is, at most an hour. `undefined` when the blob store cannot presign
   * (no `presignGet`) or the file is a folder or CAR upload, whose blob is no file's bytes: serve
   * those through `gateway.resolveHeld` (`../gateway/api.ts`). `NOT_FOUND` when the file's content is gone.
   */
  presign(link: OpenedDownloadLink, options?: DownloadPresignOptions): Promise<string | undefined>
}
