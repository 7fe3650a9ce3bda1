import { type CallOptions, optionChecks, type RecordStore, throwIfAborted } from '@pinfold/interface'
import * as apiKeys from './api-keys.js'
import * as blocks from './blocks.js'
import { toPinfoldError } from './errors.js'
import * as files from './files.js'
import * as gateway from './gateway.js'
import * as groups from './groups.js'
import * as payments from './payments.js'
import * as pinRequests from './pin-requests.js'
import type { SqlClient } from './queryable.js'
import * as uploadSessions from './upload-sessions.js'
import * as usage from './usage.js'
import { type PostgresVectorOptions, postgresVectorRecords } from './vectors.js'

export interface PostgresRecordStoreOptions {
  /** From `fromPgPool(pool)` or `fromPGlite(db)`; the schema must be migrated (see `migrate`). */
  client: SqlClient
  /** How group queries choose between exact search and the HNSW index (needs pgvector). */
  vectors?: PostgresVectorOptions | undefined
}

/**
 * A {@link RecordStore} on PostgreSQL. Every contract of the port is enforced by the database
 * (row locks, constraints, single-statement updates), so it holds across server processes.
 *
 * An aborted signal is honoured before a call starts and, for transactions, before COMMIT; a
 * statement already sent runs to completion.
 */
export function createPostgresRecordStore({ client, vectors: vectorOptions }: PostgresRecordStoreOptions): RecordStore {
  optionChecks('@pinfold/adapter-postgres', 'createPostgresRecordStore').require(
    'client',
    typeof client?.query === 'function' && typeof client.transaction === 'function',
    'must come from fromPgPool(pool) or fromPGlite(db)',
  )

  async function run<T>(action: string, options: CallOptions | undefined, work: () => Promise<T>): Promise<T> {
    throwIfAborted(options?.signal)
    try {
      return await work()
    } catch (err) {
      throw toPinfoldError(err, action)
    }
  }
  const claimNonce = payments.createNonceClaimer(client)
  const vectors = postgresVectorRecords(client, vectorOptions)

  return {
    createFile: (file, content, options) =>
      run('createFile', options, () => files.createFile(client, file, content, options)),
    getFile: (tenantId, network, id, options) =>
      run('getFile', options, () => files.getFile(client, tenantId, network, id)),
    listFiles: (tenantId, network, filter, page, options) =>
      run('listFiles', options, () => files.listFiles(client, tenantId, network, filter, page)),
    updateFile: (tenantId, network, id, patch, options) =>
      run('updateFile', options, () => files.updateFile(client, tenantId, network, id, patch)),
    deleteFile: (tenantId, network, id, options) =>
      run('deleteFile', options, () => files.deleteFile(client, tenantId, network, id, options)),
    getContent: (cid, options) => run('getContent', options, () => files.getContent(client, cid)),
    isBlobReferenced: (blobKey, options) =>
      run('isBlobReferenced', options, () => files.isBlobReferenced(client, blobKey)),
    createGroup: (group, options) => run('createGroup', options, () => groups.createGroup(client, group)),
    getGroup: (tenantId, network, id, options) =>
      run('getGroup', options, () => groups.getGroup(client, tenantId, network, id)),
    listGroups: (tenantId, network, filter, page, options) =>
      run('listGroups', options, () => groups.listGroups(client, tenantId, network, filter, page)),
    updateGroup: (tenantId, network, id, patch, options) =>
      run('updateGroup', options, () => groups.updateGroup(client, tenantId, network, id, patch)),
    deleteGroup: (tenantId, network, id, options) =>
      run('deleteGroup', options, () => groups.deleteGroup(client, tenantId, network, id)),
    putBlockLocations: (blobKey, locations, options) =>
      run('putBlockLocations', options, () => blocks.putBlockLocations(client, blobKey, locations)),
    findPublicBlock: (multihash, { at, tenantId }, options) =>
      run('findPublicBlock', options, () => blocks.findPublicBlock(client, multihash, at, tenantId)),
    findHeldFile: (tenantId, network, multihash, at, options) =>
      run('findHeldFile', options, () => blocks.findHeldFile(client, tenantId, network, multihash, at)),
    getBlockLocation: (blobKey, multihash, options) =>
      run('getBlockLocation', options, () => blocks.getBlockLocation(client, blobKey, multihash)),
    listUnindexedContents: (after, limit, options) =>
      run('listUnindexedContents', options, () => blocks.listUnindexedContents(client, after, limit)),
    listPublicRoots: (after, limit, at, options) =>
      run('listPublicRoots', options, () => blocks.listPublicRoots(client, after, limit, at)),
    deleteBlockLocations: (blobKey, options) =>
      run('deleteBlockLocations', options, () => blocks.deleteBlockLocations(client, blobKey)),
    putSwap: (swap, options) => run('putSwap', options, () => gateway.putSwap(client, swap)),
    getSwap: (tenantId, network, cid, options) =>
      run('getSwap', options, () => gateway.getSwap(client, tenantId, network, cid)),
    listSwapHistory: (tenantId, network, cid, options) =>
      run('listSwapHistory', options, () => gateway.listSwapHistory(client, tenantId, network, cid)),
    deleteSwap: (tenantId, network, cid, options) =>
      run('deleteSwap', options, () => gateway.deleteSwap(client, tenantId, network, cid)),
    addSignature: (signature, options) => run('addSignature', options, () => gateway.addSignature(client, signature)),
    getSignature: (tenantId, network, cid, options) =>
      run('getSignature', options, () => gateway.getSignature(client, tenantId, network, cid)),
    deleteSignature: (tenantId, network, cid, options) =>
      run('deleteSignature', options, () => gateway.deleteSignature(client, tenantId, network, cid)),
    createDomain: (domain, options) => run('createDomain', options, () => gateway.createDomain(client, domain)),
    getDomain: (tenantId, id, options) => run('getDomain', options, () => gateway.getDomain(client, tenantId, id)),
    listDomains: (tenantId, options) => run('listDomains', options, () => gateway.listDomains(client, tenantId)),
    findDomain: (domain, now, options) => run('findDomain', options, () => gateway.findDomain(client, domain, now)),
    activateDomain: (tenantId, id, verifiedAt, options) =>
      run('activateDomain', options, () => gateway.activateDomain(client, tenantId, id, verifiedAt)),
    deleteDomain: (tenantId, id, options) =>
      run('deleteDomain', options, () => gateway.deleteDomain(client, tenantId, id)),
    listExpiredFiles: (now, limit, options) =>
      run('listExpiredFiles', options, () => gateway.listExpiredFiles(client, now, limit)),
    createPaymentInstruction: (instruction, options) =>
      run('createPaymentInstruction', options, () => payments.createPaymentInstruction(client, instruction)),
    getPaymentInstruction: (tenantId, id, options) =>
      run('getPaymentInstruction', options, () => payments.getPaymentInstruction(client, tenantId, id)),
    listPaymentInstructions: (tenantId, filter, page, options) =>
      run('listPaymentInstructions', options, () => payments.listPaymentInstructions(client, tenantId, filter, page)),
    updatePaymentInstruction: (tenantId, id, patch, options) =>
      run('updatePaymentInstruction', options, () => payments.updatePaymentInstruction(client, tenantId, id, patch)),
    deletePaymentInstruction: (tenantId, id, options) =>
      run('deletePaymentInstruction', options, () => payments.deletePaymentInstruction(client, tenantId, id)),
    attachPaymentCid: (tenantId, instructionId, cid, attachedAt, options) =>
      run('attachPaymentCid', options, () =>
        payments.attachPaymentCid(client, tenantId, instructionId, cid, attachedAt),
      ),
    detachPaymentCid: (tenantId, instructionId, cid, options) =>
      run('detachPaymentCid', options, () => payments.detachPaymentCid(client, tenantId, instructionId, cid)),
    listPaymentCids: (tenantId, instructionId, page, options) =>
      run('listPaymentCids', options, () => payments.listPaymentCids(client, tenantId, instructionId, page)),
    findPricedCid: (cid, options) => run('findPricedCid', options, () => payments.findPricedCid(client, cid)),
    claimPaymentNonce: (payer, nonce, expiresAt, options) =>
      run('claimPaymentNonce', options, () => claimNonce(payer, nonce, expiresAt)),
    upsertFileVectors: (tenantId, network, fileId, embedding, passageVectors, options) =>
      run('upsertFileVectors', options, () =>
        vectors.upsertFileVectors(tenantId, network, fileId, embedding, passageVectors, options),
      ),
    deleteFileVectors: (tenantId, network, fileId, options) =>
      run('deleteFileVectors', options, () => vectors.deleteFileVectors(tenantId, network, fileId)),
    queryVectors: (query, embedding, options) =>
      run('queryVectors', options, () => vectors.queryVectors(query, embedding)),
    getVectorEmbedding: (options) => run('getVectorEmbedding', options, () => vectors.getVectorEmbedding()),
    resetVectorIndex: (options) => run('resetVectorIndex', options, () => vectors.resetVectorIndex()),
    createUploadSession: (session, options) =>
      run('createUploadSession', options, () => uploadSessions.createUploadSession(client, session)),
    getUploadSession: (id, options) =>
      run('getUploadSession', options, () => uploadSessions.getUploadSession(client, id)),
    advanceUploadSession: (id, expectedOffset, advance, options) =>
      run('advanceUploadSession', options, () =>
        uploadSessions.advanceUploadSession(client, id, expectedOffset, advance),
      ),
    claimUploadCompletion: (id, owner, now, leaseMs, options) =>
      run('claimUploadCompletion', options, () =>
        uploadSessions.claimUploadCompletion(client, id, owner, now, leaseMs),
      ),
    renewUploadCompletion: (id, owner, until, options) =>
      run('renewUploadCompletion', options, () => uploadSessions.renewUploadCompletion(client, id, owner, until)),
    releaseUploadCompletion: (id, owner, options) =>
      run('releaseUploadCompletion', options, () => uploadSessions.releaseUploadCompletion(client, id, owner)),
    deleteUploadSession: (id, options) =>
      run('deleteUploadSession', options, () => uploadSessions.deleteUploadSession(client, id)),
    listExpiredUploadSessions: (now, limit, options) =>
      run('listExpiredUploadSessions', options, () => uploadSessions.listExpiredUploadSessions(client, now, limit)),
    createApiKey: (key, options) => run('createApiKey', options, () => apiKeys.createApiKey(client, key)),
    getApiKey: (tenantId, id, options) => run('getApiKey', options, () => apiKeys.getApiKey(client, tenantId, id)),
    findApiKey: (key, options) => run('findApiKey', options, () => apiKeys.findApiKey(client, key)),
    listApiKeys: (tenantId, filter, page, options) =>
      run('listApiKeys', options, () => apiKeys.listApiKeys(client, tenantId, filter, page)),
    revokeApiKey: (tenantId, key, at, options) =>
      run('revokeApiKey', options, () => apiKeys.revokeApiKey(client, tenantId, key, at)),
    useApiKey: (tenantId, id, options) => run('useApiKey', options, () => apiKeys.useApiKey(client, tenantId, id)),
    addGatewayUsage: (counts, options) => run('addGatewayUsage', options, () => usage.addGatewayUsage(client, counts)),
    rankGatewayUsage: (tenantId, query, ranking, options) =>
      run('rankGatewayUsage', options, () => usage.rankGatewayUsage(client, tenantId, query, ranking)),
    gatewayUsageByDay: (tenantId, query, options) =>
      run('gatewayUsageByDay', options, () => usage.gatewayUsageByDay(client, tenantId, query)),
    storageUsage: (tenantId, options) => run('storageUsage', options, () => usage.storageUsage(client, tenantId)),
    createPinRequest: (request, options) =>
      run('createPinRequest', options, () => pinRequests.createPinRequest(client, request)),
    getPinRequest: (tenantId, id, options) =>
      run('getPinRequest', options, () => pinRequests.getPinRequest(client, tenantId, id)),
    listPinRequests: (tenantId, filter, page, options) =>
      run('listPinRequests', options, () => pinRequests.listPinRequests(client, tenantId, filter, page)),
    claimPinRequest: (owner, now, leaseMs, options) =>
      run('claimPinRequest', options, () => pinRequests.claimPinRequest(client, owner, now, leaseMs)),
    renewPinLease: (id, owner, until, options) =>
      run('renewPinLease', options, () => pinRequests.renewPinLease(client, id, owner, until)),
    finishPinRequest: (id, owner, outcome, options) =>
      run('finishPinRequest', options, () => pinRequests.finishPinRequest(client, id, owner, outcome)),
    releasePinRequest: (id, owner, options) =>
      run('releasePinRequest', options, () => pinRequests.releasePinRequest(client, id, owner)),
    deletePinRequest: (tenantId, id, options) =>
      run('deletePinRequest', options, () => pinRequests.deletePinRequest(client, tenantId, id)),
  }
}
