import { randomUUID } from 'node:crypto'
import type { NewEvent, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { MALFORMED_EVENT, newEvent } from './event-records.js'
import { at, contentFor, fileBuilder, newCid, newGroup, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'
import { newWebhookEndpoint } from './webhook-records.js'

/**
 * One write of every part that records events: `setup` makes what it changes, `write` makes the
 * change with `events`, `state` reads what the change affects. A malformed event must fail the
 * write and leave `state` as it was; a good one must be appended with the change.
 */
interface RecordedWrite {
  name: string
  setup?(store: RecordStore): Promise<void>
  write(store: RecordStore, events: NewEvent[]): Promise<unknown>
  state(store: RecordStore): Promise<unknown>
}

function recordedWrites(vectors: boolean): RecordedWrite[] {
  const group = newGroup()
  const file = fileBuilder()()
  const other = fileBuilder()({ cid: newCid() })
  const swap = { tenantId: TENANT, network: 'public' as const, cid: file.cid, mappedCid: other.cid, createdAt: at(1) }
  const signature = {
    tenantId: TENANT,
    network: 'public' as const,
    cid: file.cid,
    signature: `0x${'ab'.repeat(65)}`,
    address: `0x${'cd'.repeat(20)}`,
    createdAt: at(1),
  }
  const key = {
    id: randomUUID(),
    tenantId: TENANT,
    userId: 'user-1',
    name: 'ci',
    key: randomUUID().replaceAll('-', '').slice(0, 20),
    secretHash: 'a'.repeat(64),
    scopes: ['org:files:read'],
    permissions: {},
    maxUses: null,
    uses: 0,
    revoked: false,
    parentId: null,
    createdAt: at(0),
    updatedAt: at(0),
  }
  const domain = {
    id: randomUUID(),
    tenantId: TENANT,
    domain: `${randomUUID().slice(0, 8)}.example.com`,
    verificationToken: 'pinfold-verify=x',
    status: 'pending_ownership' as const,
    createdAt: new Date(),
    verifiedAt: null,
    expiresAt: new Date(Date.now() + 3_600_000),
  }
  const tenant = {
    id: `tenant-${randomUUID().slice(0, 8)}`,
    createdAt: at(0),
    origin: 'admin' as const,
    suspension: null,
  }
  const instruction = {
    id: randomUUID(),
    tenantId: TENANT,
    version: 1,
    paymentRequirements: [],
    name: 'paid',
    description: null,
    createdAt: at(0),
  }
  const pin = {
    id: randomUUID(),
    tenantId: TENANT,
    userId: 'user-1',
    cid: newCid(),
    name: 'pinned.txt',
    groupId: null,
    keyvalues: {},
    hostNodes: [],
    state: 'queued' as const,
    failure: null,
    reason: null,
    createdAt: at(0),
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    replaces: null,
    dagSize: null,
  }
  const endpoint = newWebhookEndpoint({ tenantId: TENANT })
  const failingEndpoint = newWebhookEndpoint({ tenantId: TENANT, failingSince: at(10) })
  const endpointState = (id: string) => (s: RecordStore) => s.webhooks.getWebhookEndpoint(TENANT, id)
  const files = async (store: RecordStore) => {
    await store.files.createFile(file, contentFor(file))
    await store.files.createFile(other, contentFor(other))
  }
  const embedding = { embedderId: 'conformance-2d', dimensions: 2 }
  const vectorWrites: RecordedWrite[] = [
    {
      name: 'upsertFileVectors',
      setup: files,
      write: (s, events) =>
        s.vectors.upsertFileVectors(TENANT, 'public', file.id, embedding, [new Float32Array([1, 0])], { events }),
      state: (s) => s.files.getFile(TENANT, 'public', file.id),
    },
    {
      name: 'deleteFileVectors',
      setup: async (s) => {
        await files(s)
        await s.vectors.upsertFileVectors(TENANT, 'public', file.id, embedding, [new Float32Array([0, 1])])
      },
      write: (s, events) => s.vectors.deleteFileVectors(TENANT, 'public', file.id, { events }),
      state: (s) => s.files.getFile(TENANT, 'public', file.id),
    },
  ]
  return [
    ...(vectors ? vectorWrites : []),
    {
      name: 'createGroup',
      write: (s, events) => s.groups.createGroup(group, { events }),
      state: (s) => s.groups.getGroup(TENANT, 'public', group.id),
    },
    {
      name: 'updateGroup',
      setup: (s) => s.groups.createGroup(group).then(() => {}),
      write: (s, events) => s.groups.updateGroup(TENANT, 'public', group.id, { name: 'renamed' }, { events }),
      state: (s) => s.groups.getGroup(TENANT, 'public', group.id),
    },
    {
      name: 'deleteGroup',
      setup: (s) => s.groups.createGroup(group).then(() => {}),
      write: (s, events) => s.groups.deleteGroup(TENANT, 'public', group.id, { events }),
      state: (s) => s.groups.getGroup(TENANT, 'public', group.id),
    },
    {
      name: 'putSwap',
      setup: files,
      write: (s, events) => s.gateway.putSwap(swap, { events }),
      state: (s) => s.gateway.getSwap(TENANT, 'public', file.cid),
    },
    {
      name: 'deleteSwap',
      setup: async (s) => {
        await files(s)
        await s.gateway.putSwap(swap)
      },
      write: (s, events) => s.gateway.deleteSwap(TENANT, 'public', file.cid, { events }),
      state: (s) => s.gateway.getSwap(TENANT, 'public', file.cid),
    },
    {
      name: 'addSignature',
      setup: files,
      write: (s, events) => s.gateway.addSignature(signature, { events }),
      state: (s) => s.gateway.getSignature(TENANT, 'public', file.cid),
    },
    {
      name: 'deleteSignature',
      setup: async (s) => {
        await files(s)
        await s.gateway.addSignature(signature)
      },
      write: (s, events) => s.gateway.deleteSignature(TENANT, 'public', file.cid, { events }),
      state: (s) => s.gateway.getSignature(TENANT, 'public', file.cid),
    },
    {
      name: 'createApiKey',
      write: (s, events) => s.apiKeys.createApiKey(key, { events }),
      state: (s) => s.apiKeys.getApiKey(TENANT, key.id),
    },
    {
      name: 'revokeApiKey',
      setup: (s) => s.apiKeys.createApiKey(key).then(() => {}),
      write: (s, events) => s.apiKeys.revokeApiKey(TENANT, key.key, at(5), { events }),
      state: (s) => s.apiKeys.getApiKey(TENANT, key.id),
    },
    {
      name: 'revokeTenantApiKeys',
      setup: (s) => s.apiKeys.createApiKey(key).then(() => {}),
      write: (s, events) => s.apiKeys.revokeTenantApiKeys(TENANT, at(5), { events }),
      state: (s) => s.apiKeys.getApiKey(TENANT, key.id),
    },
    {
      name: 'createDomain',
      write: (s, events) => s.gateway.createDomain(domain, { events }),
      state: (s) => s.gateway.getDomain(TENANT, domain.id),
    },
    {
      name: 'activateDomain',
      setup: (s) => s.gateway.createDomain(domain).then(() => {}),
      write: (s, events) => s.gateway.activateDomain(TENANT, domain.id, new Date(), { events }),
      state: (s) => s.gateway.getDomain(TENANT, domain.id),
    },
    {
      name: 'deleteDomain',
      setup: (s) => s.gateway.createDomain(domain).then(() => {}),
      write: (s, events) => s.gateway.deleteDomain(TENANT, domain.id, { events }),
      state: (s) => s.gateway.getDomain(TENANT, domain.id),
    },
    {
      name: 'setLimits',
      write: (s, events) => s.accounts.setLimits(TENANT, { files: 3 }, { events }),
      state: (s) => s.accounts.getLimits(TENANT),
    },
    {
      name: 'registerTenant',
      write: (s, events) => s.tenants.registerTenant(tenant, { events }),
      state: (s) => s.tenants.getTenant(tenant.id),
    },
    {
      name: 'setSuspension',
      setup: (s) => s.tenants.registerTenant(tenant).then(() => {}),
      write: (s, events) =>
        s.tenants.setSuspension(tenant.id, { at: at(3), reason: 'unpaid', hideContent: false }, { events }),
      state: (s) => s.tenants.getTenant(tenant.id),
    },
    {
      name: 'createPinRequest',
      write: (s, events) => s.pinRequests.createPinRequest(pin, { events }),
      state: (s) => s.pinRequests.getPinRequest(TENANT, pin.id),
    },
    {
      name: 'finishPinRequest',
      setup: async (s) => {
        await s.pinRequests.createPinRequest(pin)
        // claims go oldest first across the store: earlier writes' queued requests come before ours
        for (let i = 0; i < 10; i++) {
          if ((await s.pinRequests.claimPinRequest('worker-1', new Date(), 60_000))?.id === pin.id) break
        }
      },
      write: (s, events) =>
        s.pinRequests.finishPinRequest(pin.id, 'worker-1', { state: 'pinned', dagSize: 5 }, { events }),
      state: (s) => s.pinRequests.getPinRequest(TENANT, pin.id),
    },
    {
      name: 'deletePinRequest',
      setup: (s) => s.pinRequests.createPinRequest(pin),
      write: (s, events) => s.pinRequests.deletePinRequest(TENANT, pin.id, { events }),
      state: (s) => s.pinRequests.getPinRequest(TENANT, pin.id),
    },
    {
      name: 'createWebhookEndpoint',
      write: (s, events) => s.webhooks.createWebhookEndpoint(endpoint, { events }),
      state: endpointState(endpoint.id),
    },
    {
      name: 'updateWebhookEndpoint',
      setup: (s) => s.webhooks.createWebhookEndpoint(endpoint),
      write: (s, events) =>
        s.webhooks.updateWebhookEndpoint(TENANT, endpoint.id, { enabled: false }, at(5), { events }),
      state: endpointState(endpoint.id),
    },
    {
      name: 'updateWebhookEndpoint (its toggle’s state events)',
      setup: (s) => s.webhooks.createWebhookEndpoint(endpoint),
      write: (s, events) =>
        s.webhooks.updateWebhookEndpoint(TENANT, endpoint.id, { enabled: false }, at(5), { stateEvents: events }),
      state: endpointState(endpoint.id),
    },
    {
      name: 'rotateWebhookSecret',
      setup: (s) => s.webhooks.createWebhookEndpoint(endpoint),
      write: (s, events) =>
        s.webhooks.rotateWebhookSecret(TENANT, endpoint.id, 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD', at(9), at(5), {
          events,
        }),
      state: endpointState(endpoint.id),
    },
    {
      name: 'deleteWebhookEndpoint',
      setup: (s) => s.webhooks.createWebhookEndpoint(endpoint),
      write: (s, events) => s.webhooks.deleteWebhookEndpoint(TENANT, endpoint.id, { events }),
      state: endpointState(endpoint.id),
    },
    {
      name: 'disableFailingWebhookEndpoint',
      setup: (s) => s.webhooks.createWebhookEndpoint(failingEndpoint),
      write: (s, events) =>
        s.webhooks.disableFailingWebhookEndpoint(
          failingEndpoint.id,
          { failingBefore: at(40), at: at(50), reason: 'failing' },
          { events },
        ),
      state: endpointState(failingEndpoint.id),
    },
    {
      name: 'createPaymentInstruction',
      write: (s, events) => s.payments.createPaymentInstruction(instruction, { events }),
      state: (s) => s.payments.getPaymentInstruction(TENANT, instruction.id),
    },
    {
      name: 'attachPaymentCid',
      setup: async (s) => {
        await files(s)
        await s.payments.createPaymentInstruction(instruction)
      },
      write: (s, events) => s.payments.attachPaymentCid(TENANT, instruction.id, file.cid, at(4), { events }),
      state: (s) => s.payments.listPaymentCids(TENANT, instruction.id, { limit: 10, order: 'ASC' }),
    },
    {
      name: 'deletePaymentInstruction',
      setup: (s) => s.payments.createPaymentInstruction(instruction).then(() => {}),
      write: (s, events) => s.payments.deletePaymentInstruction(TENANT, instruction.id, { events }),
      state: (s) => s.payments.getPaymentInstruction(TENANT, instruction.id),
    },
  ]
}

/**
 * Every write that takes `RecordedOptions` keeps the audit log's rule, each through its adapter's
 * one mechanism: the event that cannot be written fails the write with nothing changed; a good
 * event is appended exactly when the change is made.
 */
export function describeRecordedWrites(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`RecordedOptions conformance: ${name}`, () => {
    let h: RecordStoreHarness
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      h = next
      store = next.store
    })

    it('every recorded write: a malformed event changes nothing, a good one is appended with the change', async () => {
      const vectors = h.capabilities?.vectors === true
      const names = recordedWrites(vectors).map((w) => w.name)
      // fresh records for each write (every call makes new ids), so one's setup never meets another's
      for (const write of names.map((_, i) => recordedWrites(vectors)[i]!)) {
        await write.setup?.(store)
        const before = await write.state(store)
        await expect(write.write(store, [MALFORMED_EVENT(write.name)])).rejects.toMatchObject({
          code: 'INVALID_INPUT',
        })
        expect(await write.state(store), write.name).toEqual(before)
        await write.write(store, [newEvent('test.recorded', write.name)])
        expect(await write.state(store), write.name).not.toEqual(before)
      }
      const { items } = await store.events.listEvents({ tenantId: TENANT }, { limit: 100, order: 'asc' })
      expect(items.map((e) => e.target.id)).toEqual(names)
    }, 120_000) // 29 writes, each with its own records: ~7 s on PGlite alone, several times that beside other suites
  })
}
