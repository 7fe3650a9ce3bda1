import Type from 'typebox'
import { named } from '../../schema.js'

/** Integers; digits as text are accepted too. */
const Seconds = (description: string) =>
  Type.Union([Type.Integer(), Type.String({ pattern: '^-?\\d+$' })], {
    description,
    errorMessage: 'must be an integer',
  })

/** Body `{url, expires, date?, method?}` as the official SDK sends it. */
export const DownloadLinkRequest = named(
  'DownloadLinkRequest',
  Type.Object({
    url: Type.String({ description: 'A URL containing `/files/<cid>`' }),
    expires: Seconds('Seconds the link stays valid'),
    date: Type.Optional(Type.Union([Seconds('Unix seconds the link starts at; default now'), Type.Null()])),
    method: Type.Optional(Type.String({ description: 'GET, the only method a link may grant' })),
  }),
)

/**
 * The `{url, method}` body of `POST /v3/files/sign` (the SDK's private `gateways.private.get`),
 * whose `expires` defaults to 30 seconds.
 */
export const DownloadSignRequest = named(
  'DownloadSignRequest',
  Type.Object({
    url: Type.String({ description: 'A URL containing `/files/<cid>`' }),
    method: Type.String({ description: 'GET, the only method a link may grant' }),
    expires: Type.Optional(
      Type.Union([Seconds('Seconds the link stays valid'), Type.Null()], { description: 'Default 30' }),
    ),
    date: Type.Optional(Type.Union([Seconds('Unix seconds the link starts at; default now'), Type.Null()])),
  }),
)

/** A parameter of a signed link (the signature covers them all: core checks them together). */
const signedParam = Type.Optional(Type.String())

/** The query of a signed download link, every parameter covered by its signature. */
export const SignedLinkQuery = Type.Object({
  'X-Algorithm': signedParam,
  'X-Date': signedParam,
  'X-Expires': signedParam,
  'X-Method': signedParam,
  'X-User-ID': signedParam,
  'X-Signature': signedParam,
})
