import { randomInt } from 'node:crypto'
import { createSocket } from 'node:dgram'
import { getServers } from 'node:dns'
import { resolveTxt as systemResolveTxt } from 'node:dns/promises'
import { isIPv6 } from 'node:net'
import type { TxtRecords, TxtResolver } from '@pinfold/core'
import * as dnsPacket from 'dns-packet'

export interface TxtResolverOptions {
  /** Name servers, `ip` or `ip:port` (`[ipv6]:port`); default: the system's (`/etc/resolv.conf`). */
  servers?: readonly string[] | undefined
  /** How long one server may take to answer before the next is asked. */
  timeoutMs?: number | undefined
}

/**
 * TXT lookups that report the answer's TTL, for DNSLink's cache (`node:dns` answers TXT without
 * one): one UDP query per server in turn, read with dns-packet. A truncated answer (longer than
 * a UDP datagram) is asked again of the system resolver, which retries over TCP, and carries no
 * TTL then. "No such name" rejects with `code: 'ENOTFOUND'`, as `node:dns` does.
 */
export function createTxtResolver(options: TxtResolverOptions = {}): TxtResolver {
  const timeoutMs = options.timeoutMs ?? 5000
  return async (name, call) => {
    const servers = options.servers ?? getServers()
    let lastError: unknown = new Error(`no DNS server to ask for ${name}`)
    for (const server of servers) {
      call?.signal?.throwIfAborted()
      try {
        const answer = await queryTxt(parseServer(server), name, timeoutMs, call?.signal)
        if (answer === 'truncated') return await systemResolveTxt(name)
        return answer
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ENOTFOUND') throw error
        lastError = error
      }
    }
    throw lastError
  }
}

function parseServer(server: string): { address: string; port: number } {
  const bracketed = /^\[(.+)\](?::(\d+))?$/.exec(server)
  if (bracketed) return { address: bracketed[1]!, port: Number(bracketed[2] ?? 53) }
  if (isIPv6(server)) return { address: server, port: 53 }
  const [address, port] = server.split(':')
  return { address: address!, port: Number(port ?? 53) }
}

function queryTxt(
  server: { address: string; port: number },
  name: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<TxtRecords | 'truncated'> {
  const id = randomInt(0, 0x10000)
  const query = dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: 'TXT', name }],
  })
  const socket = createSocket(isIPv6(server.address) ? 'udp6' : 'udp4')
  return new Promise<TxtRecords | 'truncated'>((resolve, reject) => {
    const done = (settle: () => void) => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      socket.close()
      settle()
    }
    const onAbort = () => done(() => reject(signal?.reason))
    const timer = setTimeout(
      () => done(() => reject(Object.assign(new Error(`queryTxt ETIMEOUT ${name}`), { code: 'ETIMEOUT' }))),
      timeoutMs,
    )
    signal?.addEventListener('abort', onAbort, { once: true })
    socket.on('error', (error) => done(() => reject(error)))
    socket.on('message', (message, from) => {
      // only the server asked, answering this query, counts: anything else is noise or spoofing
      if (from.port !== server.port) return
      let packet: dnsPacket.DecodedPacket
      try {
        packet = dnsPacket.decode(message)
      } catch {
        return
      }
      if (packet.id !== id || packet.type !== 'response') return
      done(() => {
        try {
          resolve(readAnswer(packet, name))
        } catch (error) {
          reject(error)
        }
      })
    })
    socket.send(query, server.port, server.address, (error) => {
      if (error) done(() => reject(error))
    })
  })
}

function readAnswer(packet: dnsPacket.DecodedPacket, name: string): TxtRecords | 'truncated' {
  if (packet.flag_tc) return 'truncated'
  const rcode = (packet as { rcode?: string }).rcode
  if (rcode === 'NXDOMAIN') throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
  if (rcode && rcode !== 'NOERROR') {
    throw Object.assign(new Error(`queryTxt ${rcode} ${name}`), { code: rcode === 'SERVFAIL' ? 'ESERVFAIL' : rcode })
  }
  const txt = (packet.answers ?? []).filter((answer) => answer.type === 'TXT')
  const records = txt.map((answer) => {
    const data = answer.data as dnsPacket.TxtData
    return (Array.isArray(data) ? data : [data]).map((part) =>
      typeof part === 'string' ? part : part.toString('utf8'),
    )
  })
  // the answer may be kept as long as its shortest-lived record
  const ttls = txt.map((answer) => answer.ttl ?? 0)
  return Object.assign(records, { ttlSeconds: ttls.length > 0 ? Math.min(...ttls) : undefined })
}
