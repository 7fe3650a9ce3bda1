import type { Actor, FileService, UploadItem } from '@pinfold/core'

/**
 * Your application's own code: profile pictures stored in Pinfold. It takes the service as a
 * parameter, so production passes one over Postgres/S3 and tests pass one held in memory.
 */
export function createAvatars(service: FileService, tenantId: string) {
  const actor = (userId: string): Actor => ({ tenantId, userId })
  const mine = (userId: string) =>
    service.files.list(actor(userId), 'public', { keyvalues: { avatarOf: userId }, limit: 100 })

  return {
    /** Stores a new avatar, removes the previous ones, and answers the new CID. */
    async set(userId: string, image: Uint8Array, mimeType: string): Promise<string> {
      const before = await mine(userId)
      // Upload items arrive like multipart parts: options, then the file with its bytes as a stream.
      const { file } = await service.files.upload(
        actor(userId),
        stream<UploadItem>(
          { kind: 'options', options: { network: 'public', keyvalues: { avatarOf: userId } } },
          { kind: 'file', path: `${userId}.img`, mimeType, content: stream(image) },
        ),
      )
      for (const old of before.files) {
        if (old.id !== file.id) await service.files.delete(actor(userId), 'public', old.id)
      }
      return file.cid
    },

    /** The CID of a user's avatar, or null when they have none. */
    async get(userId: string): Promise<string | null> {
      return (await mine(userId)).files[0]?.cid ?? null
    },
  }
}

/** Uploads take async iterables (so big files stream); in-memory values just get wrapped. */
async function* stream<T>(...values: T[]): AsyncGenerator<T> {
  yield* values
}
