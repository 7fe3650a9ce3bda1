import type { UploadItem, UploadOptions } from '@pinfold/core'
import type { Static } from 'typebox'
import { parseMultipart } from '../../multipart.js'
import { formField } from '../../request-input.js'
import { unixSecondsToDate } from '../../schema.js'
import { FileUploadForm, LegacyPinForm, type UploadQuery } from './wire.js'

/** Upload requests read as core's upload items: file parts carry bytes, text fields become options. */

/** One text field of {@link FileUploadForm} (or tus metadata entry), as upload options. */
export function uploadFieldToOptions(name: string, value: string): Partial<UploadOptions> | undefined {
  const form = FileUploadForm
  switch (name) {
    case 'network':
      return { network: formField(form, name, value) }
    case 'name':
      return value === '' ? {} : { name: formField(form, name, value) }
    case 'group_id':
      return { groupId: value === '' ? null : formField(form, name, value) }
    case 'keyvalues':
      // core keeps numbers and booleans as their text
      return { keyvalues: formField(form, name, value) as UploadOptions['keyvalues'] }
    case 'cid_version':
      return { cidVersion: formField(form, name, value) }
    case 'expires_at':
      return { expiresAt: unixSecondsToDate(formField(form, name, value)) }
    case 'car':
      return { car: formField(form, name, value) }
    default:
      return undefined
  }
}

/** Multipart parts as upload items: `file` parts carry bytes, known fields become options. */
export async function* uploadItems(request: Request): AsyncGenerator<UploadItem> {
  for await (const part of parseMultipart(request)) {
    if (part.kind === 'file') {
      if (part.name !== 'file') continue
      yield { kind: 'file', path: part.filename, mimeType: part.mimeType, content: part.content }
    } else {
      const options = uploadFieldToOptions(part.name, part.value)
      if (options) yield { kind: 'options', options }
    }
  }
}

export const clientOptions = (query: Static<typeof UploadQuery>): Partial<UploadOptions> => {
  const cidVersion = query['X-Upload-Option-Cid-Version']
  return cidVersion === undefined ? {} : { cidVersion }
}

/** `items`, after `options` (which later options override). */
export async function* withOptions(
  options: Partial<UploadOptions>,
  items: AsyncIterable<UploadItem>,
): AsyncGenerator<UploadItem> {
  yield { kind: 'options', options }
  yield* items
}

/** The legacy `pinFileToIPFS` form: Pinata's v1 field names, JSON in two text fields. */
export async function* legacyItems(request: Request): AsyncGenerator<UploadItem> {
  // the legacy API pins to public IPFS, with CIDv0 unless pinataOptions.cidVersion says otherwise
  yield { kind: 'options', options: { network: 'public', cidVersion: 'v0' } }
  for await (const part of parseMultipart(request)) {
    if (part.kind === 'file') {
      if (part.name !== 'file') continue
      yield { kind: 'file', path: part.filename, mimeType: part.mimeType, content: part.content }
    } else if (part.name === 'pinataMetadata' && part.value !== '') {
      const { name, keyvalues } = formField(LegacyPinForm, 'pinataMetadata', part.value)
      const options: Partial<UploadOptions> = {}
      if (name) options.name = name
      if (keyvalues) options.keyvalues = keyvalues as UploadOptions['keyvalues']
      yield { kind: 'options', options }
    } else if (part.name === 'pinataOptions' && part.value !== '') {
      const { cidVersion, groupId } = formField(LegacyPinForm, 'pinataOptions', part.value)
      const options: Partial<UploadOptions> = {}
      if (cidVersion !== undefined && cidVersion !== null) options.cidVersion = Number(cidVersion) === 0 ? 'v0' : 'v1'
      if (groupId) options.groupId = groupId
      yield { kind: 'options', options }
    }
  }
}
