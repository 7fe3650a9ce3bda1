/** Where core's new ids and blob keys come from; injectable so tests can predict them. */
export interface IdSource {
  /** A new unique, time-ordered id (UUIDv7) for files, groups and other records. */
  recordId(): string
  /** A new unique blob key. */
  blobKey(): string
}
