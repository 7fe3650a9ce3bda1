import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  BUILT_IN_PLUGINS,
  type CallOptions,
  createFileService,
  type FileService,
  type GatewayPlugin,
  type RecordStore,
} from '../../src/index.js'
import { alice, createTestService, uploadFile, uploadFolder } from '../support/test-service.js'

/** Every method of `T`, its groups' methods included. */
type Methods<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => unknown ? T[K] : T[K] extends object ? Methods<T[K]> : never
}[keyof T]

/** `true` when the function's last parameter is call options (with a `signal`), else `false`. */
type TakesSignalLast<F> = F extends (...args: infer A) => unknown
  ? Required<A> extends [...unknown[], infer Last]
    ? NonNullable<Last> extends CallOptions
      ? 'signal' extends keyof NonNullable<Last>
        ? true
        : false
      : false
    : false
  : false

describe('FileService', () => {
  it('createFileService - returns exactly the declared FileService, which hands out no store or clock', () => {
    expectTypeOf(createFileService).returns.toEqualTypeOf<FileService>()
    expectTypeOf<FileService>().not.toHaveProperty('records')
    expectTypeOf<FileService>().not.toHaveProperty('blobs')
    expectTypeOf<FileService>().not.toHaveProperty('clock')
    expectTypeOf<FileService['domains']>().not.toHaveProperty('resolver')
    // distributes over every method: one without call options last would make this `boolean`
    expectTypeOf<TakesSignalLast<Methods<FileService>>>().toEqualTypeOf<true>()
  })

  it('createFileService - at run time too, the service is its operation groups and feature flags only', () => {
    const { service } = createTestService()
    expect(Object.keys(service).sort()).toEqual(
      [
        'admin',
        'apiKeys',
        'usage',
        'denylist',
        'dnslink',
        'domains',
        'downloadLinks',
        'events',
        'expiry',
        'features',
        'files',
        'gateway',
        'gatewayDenyRules',
        'groups',
        'health',
        'heldContent',
        'maintenance',
        'payments',
        'pins',
        'plugins',
        'quotas',
        'signatures',
        'swaps',
        'tenants',
        'totals',
        'uploads',
        'vectors',
        'webhooks',
      ].sort(),
    )
    const { features, uploads, domains, ...groups } = service
    const { signed, ...sessions } = uploads
    // the one setting a caller reads: which domain dedicated gateway names live under (routing needs it)
    const { gatewayDomain, ...domainOperations } = domains
    expect(gatewayDomain).toBeUndefined()
    for (const group of [...Object.values(groups), signed, sessions, domainOperations]) {
      for (const [name, member] of Object.entries(group)) expect(typeof member, name).toBe('function')
    }
    expect(Object.values(features).every((on) => typeof on === 'boolean')).toBe(true)
  })

  it("plugins - the catalog is the one given at construction: changing the caller's array afterwards changes nothing", async () => {
    const catalog: GatewayPlugin[] = [{ ...BUILT_IN_PLUGINS[0]!, tags: ['signatures'] }]
    const { service } = createTestService({ gatewayPlugins: catalog })
    catalog.push({ ...BUILT_IN_PLUGINS[1]! })
    catalog[0]!.tags.push('changed')
    expect(await service.plugins.list()).toEqual([{ ...BUILT_IN_PLUGINS[0], tags: ['signatures'] }])
  })
})

interface PortCall {
  method: string
  signal: AbortSignal | undefined
}

/** `target` with every method call recorded, with the signal of the call options it was given. */
function recorded<T extends object>(name: string, target: T, calls: PortCall[]): T {
  return new Proxy(target, {
    get(store, key, receiver) {
      const value = Reflect.get(store, key, receiver)
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        const options = [...args].reverse().find((arg) => typeof arg === 'object' && arg !== null && 'signal' in arg)
        calls.push({ method: `${name}.${String(key)}`, signal: (options as CallOptions | undefined)?.signal })
        return value.apply(store, args)
      }
    },
  })
}

/** A record store with every method of every part recorded (as `records.<part>.<method>`). */
function recordedParts(store: RecordStore, calls: PortCall[]): RecordStore {
  const parts = Object.entries(store).map(([part, methods]) => [part, recorded(`records.${part}`, methods, calls)])
  return Object.fromEntries(parts) as RecordStore
}

describe('call options', () => {
  /**
   * A service whose ports record every call, and what each operation below leaves behind to work
   * on. Only the calls made while the operation runs are judged.
   */
  async function setup() {
    const calls: PortCall[] = []
    const test = createTestService({
      records: recordedParts(createMemoryRecordStore(), calls),
      blobs: recorded('blobs', createMemoryBlobStore(), calls),
      // without the gateway's read cache: setup resolves the folder below, and a cached answer
      // would make no port call for the signal to be judged on
      gatewayCache: { maxBytes: 0 },
    })
    const { service, txt } = test
    const { file } = await uploadFile(service, alice, 'some bytes', { network: 'public' })
    const { file: other } = await uploadFile(service, alice, 'other bytes', { network: 'public' })
    const { file: folder } = await uploadFolder(
      service,
      alice,
      { 'site/a.txt': 'a', 'site/b/c.txt': 'c' },
      { network: 'public' },
    )
    const group = await service.groups.create(alice, 'public', { name: 'g' })
    const domain = await service.domains.create(alice, 'files.example.com')
    txt.set('_service-verify.files.example.com', [[domain.verificationToken]])
    const session = await service.uploads.create(alice, { length: 10, options: {} })
    // as her requests do: the registry's read of a tenant is shared by every request waiting for
    // it, so no one caller's signal goes with it; once remembered, a session's calls read nothing
    await service.tenants.admit(alice)
    const url = new URL(
      await service.downloadLinks.create(alice, { url: `/files/${file.cid}`, expires: 60 }, 'https://x'),
    )
    const link = await service.downloadLinks.open(file.cid, url.searchParams)
    const root = await service.gateway.resolve({ kind: 'public' }, folder.cid)
    return { calls, service, file, other, folder, group, domain, session, url, link, root }
  }
  type Setup = Awaited<ReturnType<typeof setup>>

  /** Operations that reach the stores, each given `options` (a signal) last. */
  const OPERATIONS: Record<string, (s: Setup, options: CallOptions) => Promise<unknown>> = {
    'files.get': (s, o) => s.service.files.get(alice, 'public', s.file.id, o),
    'files.list': (s, o) => s.service.files.list(alice, 'public', {}, o),
    'files.update': (s, o) => s.service.files.update(alice, 'public', s.file.id, { name: 'renamed' }, o),
    'groups.create': (s, o) => s.service.groups.create(alice, 'public', { name: 'h' }, o),
    'groups.get': (s, o) => s.service.groups.get(alice, 'public', s.group.id, o),
    'groups.list': (s, o) => s.service.groups.list(alice, 'public', {}, o),
    'groups.update': (s, o) => s.service.groups.update(alice, 'public', s.group.id, { isPublic: true }, o),
    'groups.addFile': (s, o) => s.service.groups.addFile(alice, 'public', s.group.id, s.file.id, o),
    'groups.removeFile': (s, o) => s.service.groups.removeFile(alice, 'public', s.group.id, s.file.id, o),
    'groups.delete': (s, o) => s.service.groups.delete(alice, 'public', s.group.id, o),
    'gateway.resolve': (s, o) => s.service.gateway.resolve({ kind: 'public' }, s.folder.cid, o),
    'gateway.resolveHeld': (s, o) => s.service.gateway.resolveHeld(s.file, o),
    'gateway.entry': (s, o) => s.service.gateway.entry(s.root, ['b', 'c.txt'], o),
    'gateway.block': (s, o) => s.service.gateway.block(s.root, ['a.txt'], o),
    'gateway.car': (s, o) => s.service.gateway.car(s.root, ['b'], o),
    'gateway.publicBlock': (s, o) => s.service.gateway.publicBlock(s.file.cid, o),
    'gateway.publicRoots': async (s, o) => {
      for await (const _ of s.service.gateway.publicRoots(o));
    },
    'downloadLinks.create': (s, o) =>
      s.service.downloadLinks.create(alice, { url: `/files/${s.file.cid}`, expires: 60 }, 'https://x', o),
    'downloadLinks.open': (s, o) => s.service.downloadLinks.open(s.file.cid, s.url.searchParams, o),
    'swaps.add': (s, o) => s.service.swaps.add(alice, 'public', s.file.cid, s.other.cid, o),
    'swaps.history': async (s, o) => {
      await s.service.swaps.add(alice, 'public', s.file.cid, s.other.cid, o)
      return s.service.swaps.history(alice, 'public', s.file.cid, o)
    },
    'swaps.remove': async (s, o) => {
      await s.service.swaps.add(alice, 'public', s.file.cid, s.other.cid, o)
      return s.service.swaps.remove(alice, 'public', s.file.cid, o)
    },
    'signatures.get': (s, o) => s.service.signatures.get(alice, 'public', s.file.cid, o).catch(() => {}),
    'signatures.remove': (s, o) => s.service.signatures.remove(alice, 'public', s.file.cid, o).catch(() => {}),
    'domains.create': (s, o) => s.service.domains.create(alice, 'other.example.com', [], o),
    'domains.get': (s, o) => s.service.domains.get(alice, s.domain.id, o),
    'domains.list': (s, o) => s.service.domains.list(alice, o),
    'domains.verify': (s, o) => s.service.domains.verify(alice, s.domain.id, o),
    'domains.route': (s, o) => s.service.domains.route('files.example.com', o),
    'domains.remove': (s, o) => s.service.domains.remove(alice, s.domain.id, o),
    'uploads.status': (s, o) => s.service.uploads.status(s.session.id, s.session.token, o),
    'uploads.terminate': (s, o) => s.service.uploads.terminate(s.session.id, s.session.token, o),
    'expiry.sweep': (s, o) => s.service.expiry.sweep(undefined, o),
    'uploads.sweepExpiredSessions': (s, o) => s.service.uploads.sweepExpiredSessions(undefined, o),
    'maintenance.sweepOrphanBlobs': (s, o) => s.service.maintenance.sweepOrphanBlobs(o),
    'maintenance.indexBlocks': (s, o) => s.service.maintenance.indexBlocks(o),
    'health.check': (s, o) => s.service.health.check(o),
    'totals.stored': (s, o) => s.service.totals.stored(o),
    'totals.pinStates': (s, o) => s.service.totals.pinStates(o),
    'pins.add': (s, o) => s.service.pins.add(alice, { cid: s.file.cid, groupId: s.group.id }, o),
    'pins.list': (s, o) => s.service.pins.list(alice, {}, o),
    'pins.remove': async (s, o) =>
      s.service.pins.remove(alice, (await s.service.pins.add(alice, { cid: s.file.cid }, o)).id, o),
  }

  it.each(Object.entries(OPERATIONS))("%s - every port call carries the caller's signal", async (_name, operation) => {
    const s = await setup()
    s.calls.length = 0
    const { signal } = new AbortController()
    await operation(s, { signal })
    expect(s.calls.length).toBeGreaterThan(0)
    expect(s.calls.filter((call) => call.signal !== signal)).toEqual([])
  })
})
