import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'

/**
 * The node's identity. A peer id is its public key, so it must survive restarts: peers, routers and
 * the DHT know the node by it. The key is written as Kubo writes `Identity.PrivKey` (base64 of the
 * libp2p protobuf), so an operator can move a Kubo identity over, and back.
 */
export function parsePeerKey(text: string): PrivateKey {
  const bytes = Buffer.from(text.trim(), 'base64')
  try {
    return privateKeyFromProtobuf(bytes)
  } catch (cause) {
    throw new Error('the IPFS peer key is not a base64 libp2p private key (Kubo’s Identity.PrivKey)', { cause })
  }
}

/**
 * Reads the key kept at `path`, or creates an Ed25519 key there on first start: owner-only (0600) in
 * an owner-only directory, created with `wx` so two processes starting at once agree on one key.
 */
export async function loadOrCreatePeerKey(path: string): Promise<PrivateKey> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  try {
    return parsePeerKey(await readFile(path, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const key = await generateKeyPair('Ed25519')
  try {
    await writeFile(path, `${Buffer.from(privateKeyToProtobuf(key)).toString('base64')}\n`, {
      mode: 0o600,
      flag: 'wx',
    })
    await chmod(path, 0o600)
    return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return parsePeerKey(await readFile(path, 'utf8'))
  }
}
