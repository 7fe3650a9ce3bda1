import * as dagJson from '@ipld/dag-json'
import type { HostAnswer } from '@pinfold/testing/gateway'
import {
  type ConformanceGateway,
  conformanceScore,
  openFixtureCar,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect } from 'vitest'

/**
 * gateway-conformance `tests/path_gateway_dag_test.go`: dag-json, dag-cbor, json and cbor blocks
 * (IPIP-524: served as themselves, no codec conversions), pathing through them, HTML previews.
 */
const score = conformanceScore('path_gateway_dag_test.go')

let gw: ConformanceGateway
beforeAll(async () => {
  gw = await startConformanceGateway()
})
afterAll(() => gw.close())

const bytesOf = (answer: HostAnswer) => new Uint8Array(Buffer.from(answer.body, 'latin1'))
const textOf = (answer: HostAnswer) => Buffer.from(answer.body, 'latin1').toString('utf8')

/** The suite's `IsJSONEqual`: the same JSON value, whatever the spacing. */
const expectJsonEqual = (answer: HostAnswer, expected: Uint8Array) =>
  expect(JSON.parse(textOf(answer))).toEqual(JSON.parse(new TextDecoder().decode(expected)))

/**
 * The suite's range helpers (`IncludeRandomRangeTests`/`OnlyRandomRangeTests`, ranges `7-9` and
 * `1-3`): one range is a 206 with that slice (or the whole body), two are the whole body or the
 * first range or `multipart/byteranges`; each still satisfies the base test's checks.
 */
function rangeTests(
  T: string,
  name: string,
  request: (headers: Record<string, string>) => Promise<HostAnswer>,
  fullData: () => Uint8Array,
  contentType: string,
  check: (answer: HostAnswer) => void,
  { includeFull }: { includeFull: boolean },
) {
  if (includeFull) {
    score.it(T, `${name} - full request`, async () => {
      const full = fullData()
      const answer = await request({})
      check(answer)
      expect(answer.status).toBe(200)
      expect(bytesOf(answer)).toEqual(full)
    })
  }
  score.it(T, `${name} - single range`, async () => {
    const full = fullData()
    const answer = await request({ range: 'bytes=7-9' })
    check(answer)
    if (answer.status === 206) {
      expect(bytesOf(answer)).toEqual(full.subarray(7, 10))
      expect(answer.headers['content-range']).toBe(`bytes 7-9/${full.length}`)
    } else {
      expect(answer.status).toBe(200)
      expect(bytesOf(answer)).toEqual(full)
    }
  })
  score.it(T, `${name} - multi range`, async () => {
    const full = fullData()
    const answer = await request({ range: 'bytes=7-9,1-3' })
    check(answer)
    if (answer.status === 200) {
      expect(bytesOf(answer)).toEqual(full)
      expect(answer.headers['content-type']).toBe(contentType)
    } else {
      expect(answer.status).toBe(206)
      const multipart = answer.headers['content-type']?.includes('multipart/byteranges')
      if (multipart) {
        expect(answer.body).toContain(`Content-Type: ${contentType}`)
        expect(answer.body).toContain(`Content-Range: bytes 7-9/${full.length}`)
      } else {
        expect(bytesOf(answer)).toEqual(full.subarray(7, 10))
        expect(answer.headers['content-type']).toBe(contentType)
      }
    }
  })
}

describe('TestGatewayJsonCbor', () => {
  const T = 'TestGatewayJsonCbor'
  let fileJsonCid: string
  let fileJsonData: Uint8Array
  beforeAll(async () => {
    await gw.loadCar('path_gateway_dag/gateway-json-cbor.car')
    const car = await openFixtureCar('path_gateway_dag/gateway-json-cbor.car')
    fileJsonCid = (await car.cid('ą', 'ę', 't.json')).toString()
    fileJsonData = await car.rawData('ą', 'ę', 't.json')
  })

  score.it(
    T,
    'GET UnixFS file with JSON bytes is returned with application/json Content-Type - without headers',
    async () => {
      const res = await gw.get(`/ipfs/${fileJsonCid}`)
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('application/json')
      expect(bytesOf(res)).toEqual(fileJsonData)
    },
  )
  score.it(
    T,
    'GET UnixFS file with JSON bytes is returned with application/json Content-Type - with headers',
    async () => {
      const res = await gw.get(`/ipfs/${fileJsonCid}`, { headers: { accept: 'application/json' } })
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toBe('application/json')
      expect(bytesOf(res)).toEqual(fileJsonData)
    },
  )
  score.it(T, 'GET raw block with JSON bytes prefers format over Accept header', async () => {
    const res = await gw.get(`/ipfs/${fileJsonCid}?format=json`, { headers: { accept: 'application/vnd.ipld.raw' } })
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json')
    expect(bytesOf(res)).toEqual(fileJsonData)
  })
})

describe('TestCodecMismatchReturns406', () => {
  const T = 'TestCodecMismatchReturns406'
  let unixfsFile: string
  let dagJsonCid: string
  let dagCborCid: string
  beforeAll(async () => {
    await gw.loadCar('path_gateway_dag/gateway-json-cbor.car')
    const car = await openFixtureCar('path_gateway_dag/gateway-json-cbor.car')
    unixfsFile = (await car.cid('ą', 'ę', 'file-źł.txt')).toString()
    dagJsonCid = await gw.loadCar('path_gateway_dag/dag-json-traversal.car')
    dagCborCid = await gw.loadCar('path_gateway_dag/dag-cbor-traversal.car')
  })
  const expect406 = async (path: string, headers: Record<string, string> = {}) => {
    const res = await gw.get(path, { headers })
    expect(res.status).toBe(406)
    expect(JSON.parse(res.body).error).toMatch(/not served as/)
  }

  score.it(T, 'GET UnixFS (dag-pb) file with format=dag-json returns 406 Not Acceptable', () =>
    expect406(`/ipfs/${unixfsFile}?format=dag-json`),
  )
  score.it(T, 'GET UnixFS (dag-pb) file with format=dag-cbor returns 406 Not Acceptable', () =>
    expect406(`/ipfs/${unixfsFile}?format=dag-cbor`),
  )
  score.it(T, 'GET UnixFS (dag-pb) file with Accept: application/vnd.ipld.dag-json returns 406 Not Acceptable', () =>
    expect406(`/ipfs/${unixfsFile}`, { accept: 'application/vnd.ipld.dag-json' }),
  )
  score.it(T, 'GET DAG-JSON block with format=dag-cbor returns 406 Not Acceptable', () =>
    expect406(`/ipfs/${dagJsonCid}?format=dag-cbor`),
  )
  score.it(T, 'GET DAG-CBOR block with format=dag-json returns 406 Not Acceptable', () =>
    expect406(`/ipfs/${dagCborCid}?format=dag-json`),
  )
  score.it(T, 'GET DAG-CBOR block with Accept: application/vnd.ipld.dag-json returns 406 Not Acceptable', () =>
    expect406(`/ipfs/${dagCborCid}`, { accept: 'application/vnd.ipld.dag-json' }),
  )
})

describe('TestPlainCodec', () => {
  const T = 'TestPlainCodec'
  const rows = [
    { name: 'plain JSON codec', format: 'json', disposition: 'inline' },
    { name: 'plain CBOR codec', format: 'cbor', disposition: 'attachment' },
  ] as const
  const plain: Record<string, { cid: string; raw: Uint8Array }> = {}
  beforeAll(async () => {
    for (const { format } of rows) {
      const path = `path_gateway_dag/plain-${format}.car`
      const cid = await gw.loadCar(path)
      const car = await openFixtureCar(path)
      plain[format] = { cid, raw: car.block(car.root) }
    }
  })

  for (const { name, format, disposition } of rows) {
    const contentType = `application/${format}`
    const check = (answer: HostAnswer) =>
      expect(answer.headers['content-disposition']).toContain(
        `${disposition}; filename="${plain[format]!.cid}.${format}"`,
      )
    const variants: [string, string, Record<string, string>][] = [
      [`GET ${name} without Accept or format= has expected "${format}" Content-Type and body as-is`, '', {}],
      [`GET ${name} with ?format= has expected ${format} Content-Type and body as-is`, `?format=${format}`, {}],
      [
        `GET ${name} with Accept has expected ${format} Content-Type and body as-is, with single range request`,
        '',
        { accept: contentType },
      ],
    ]
    for (const [title, query, headers] of variants) {
      rangeTests(
        T,
        title,
        (extra) => gw.get(`/ipfs/${plain[format]!.cid}${query}`, { headers: { ...headers, ...extra } }),
        () => plain[format]!.raw,
        contentType,
        check,
        { includeFull: true },
      )
    }
  }
})

describe('TestPathing', () => {
  const T = 'TestPathing'
  let dagJsonCid: string
  let dagCborCid: string
  beforeAll(async () => {
    dagJsonCid = await gw.loadCar('path_gateway_dag/dag-json-traversal.car')
    dagCborCid = await gw.loadCar('path_gateway_dag/dag-cbor-traversal.car')
  })

  score.it(T, 'GET DAG-JSON traversal returns 501 if there is path remainder', async () => {
    const res = await gw.get(`/ipfs/${dagJsonCid}/foo?format=dag-json`)
    expect(res.status).toBe(501)
    expect(JSON.parse(res.body).error).toContain('not a link')
  })
  score.it(T, 'GET DAG-JSON traverses multiple links', async () => {
    const res = await gw.get(`/ipfs/${dagJsonCid}/foo/link/bar?format=dag-json`)
    expect(res.status).toBe(200)
    expect(JSON.parse(textOf(res))).toEqual({ hello: 'this is not a link' })
  })
  score.it(T, 'GET DAG-JSON returns 404 on non-existing link', async () => {
    expect((await gw.get(`/ipfs/${dagJsonCid}/foo/i-do-not-exist`)).status).toBe(404)
  })
  score.it(T, 'GET DAG-CBOR traversal returns 501 if there is path remainder', async () => {
    expect((await gw.get(`/ipfs/${dagCborCid}/foo?format=dag-cbor`)).status).toBe(501)
  })
  score.it(T, 'GET DAG-CBOR traverses multiple links', async () => {
    const res = await gw.get(`/ipfs/${dagCborCid}/foo/link/bar?format=dag-cbor`)
    expect(res.status).toBe(200)
    expect(bytesOf(res)).toEqual(
      new Uint8Array([
        0xa1, 0x65, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x72, 0x74, 0x68, 0x69, 0x73, 0x20, 0x69, 0x73, 0x20, 0x6e, 0x6f,
        0x74, 0x20, 0x61, 0x20, 0x6c, 0x69, 0x6e, 0x6b,
      ]),
    )
  })
  score.it(T, 'GET DAG-CBOR returns 404 on non-existing link', async () => {
    expect((await gw.get(`/ipfs/${dagCborCid}/foo/i-do-not-exist`)).status).toBe(404)
  })
})

describe('TestNativeDag', () => {
  const T = 'TestNativeDag'
  const rows = [
    { name: 'plain JSON codec', format: 'json', disposition: 'inline' },
    { name: 'plain CBOR codec', format: 'cbor', disposition: 'attachment' },
  ] as const
  const fixtures: Record<string, { cid: string; raw: Uint8Array }> = {}
  let missingCid: string
  beforeAll(async () => {
    for (const { format } of rows) {
      const path = `path_gateway_dag/dag-${format}-traversal.car`
      const cid = await gw.loadCar(path)
      const car = await openFixtureCar(path)
      fixtures[format] = { cid, raw: car.block(car.root) }
    }
    // the suite's car.RandomCID(): a CID nobody holds
    missingCid = CID.createV1(dagJson.code, await sha256.digest(crypto.getRandomValues(new Uint8Array(32)))).toString()
  })

  for (const { name, format, disposition } of rows) {
    const f = () => fixtures[format]!
    const dagType = `application/vnd.ipld.dag-${format}`
    // the suite's `Formatted("dag-" + format)`: the block as that codec writes it, here its own bytes
    const sameValue = (answer: HostAnswer) => {
      if (format === 'json') expectJsonEqual(answer, f().raw)
      else expect(bytesOf(answer)).toEqual(f().raw)
    }

    score.it(
      T,
      `GET ${name} from /ipfs without explicit format returns the same payload as the raw block`,
      async () => {
        const res = await gw.get(`/ipfs/${f().cid}`)
        expect(res.status).toBe(200)
        sameValue(res)
      },
    )
    score.it(
      T,
      `GET ${name} from /ipfs with format=dag-${format} returns the same payload as the raw block`,
      async () => {
        const res = await gw.get(`/ipfs/${f().cid}?format=dag-${format}`)
        expect(res.status).toBe(200)
        sameValue(res)
      },
    )
    score.it(
      T,
      `GET ${name} from /ipfs with application/vnd.ipld.dag-${format} returns the same payload as the raw block`,
      async () => {
        const res = await gw.get(`/ipfs/${f().cid}`, { headers: { accept: dagType } })
        expect(res.status).toBe(200)
        sameValue(res)
      },
    )
    score.it(
      T,
      `GET ${name} with format=${format} returns same payload as format=dag-${format} but with plain Content-Type`,
      async () => {
        const res = await gw.get(`/ipfs/${f().cid}?format=${format}`)
        expect(res.status).toBe(200)
        expect(res.headers['content-type']).toBe(`application/${format}`)
        sameValue(res)
      },
    )
    score.it(
      T,
      `GET ${name} with Accept: application/${format} returns same payload as application/vnd.ipld.dag-${format} but with plain Content-Type`,
      async () => {
        const res = await gw.get(`/ipfs/${f().cid}`, { headers: { accept: `application/${format}` } })
        expect(res.status).toBe(200)
        expect(res.headers['content-type']).toBe(`application/${format}`)
        sameValue(res)
      },
    )
    score.it(T, `GET response for application/vnd.ipld.dag-${format} has expected Content-Type`, async () => {
      const res = await gw.get(`/ipfs/${f().cid}`, { headers: { accept: dagType } })
      expect(res.headers['content-type']).toBe(dagType)
      expect(res.headers['content-length']).toBe(String(f().raw.length))
      expect(res.headers['content-disposition']).toContain(`${disposition}; filename="${f().cid}.${format}"`)
    })
    score.it(
      T,
      `GET for application/vnd.ipld.dag-${format} with query filename includes Content-Disposition with custom filename`,
      async () => {
        const res = await gw.get(`/ipfs/${f().cid}?filename=foobar.${format}`, { headers: { accept: dagType } })
        expect(res.headers['content-disposition']).toContain(`${disposition}; filename="foobar.${format}"`)
      },
    )
    score.it(
      T,
      `GET for application/vnd.ipld.dag-${format} with ?download=true forces Content-Disposition: attachment`,
      async () => {
        const res = await gw.get(`/ipfs/${f().cid}?filename=foobar.${format}&download=true`, {
          headers: { accept: dagType },
        })
        expect(res.headers['content-disposition']).toContain(`attachment; filename="foobar.${format}"`)
      },
    )
    score.it(T, `Cache control HTTP headers (${format})`, async () => {
      const res = await gw.get(`/ipfs/${f().cid}`, { headers: { accept: dagType } })
      expect(res.headers.etag).toContain(`${f().cid}.dag-${format}`)
      expect(res.headers['x-ipfs-path']).toBeTruthy()
      expect(res.headers['x-ipfs-roots']).toBeTruthy()
      expect(res.headers['cache-control']).toContain('public, max-age=29030400, immutable')
    })
    score.it(T, `HEAD ${name} with no explicit format returns HTTP 200`, async () => {
      const res = await gw.get(`/ipfs/${f().cid}`, { method: 'HEAD' })
      expect(res.status).toBe(200)
      expect(res.headers['content-type']).toContain(dagType)
      expect(res.headers['content-length']).toBeTruthy()
    })
    score.it(T, `HEAD ${name} with an explicit format returns HTTP 200`, async () => {
      const res = await gw.get(`/ipfs/${f().cid}?format=dag-${format}`, { method: 'HEAD' })
      expect(res.status).toBe(200)
      expect(res.headers.etag).toContain(`${f().cid}.dag-${format}`)
      expect(res.headers['content-type']).toContain(dagType)
      expect(res.headers['content-length']).toBeTruthy()
    })
    score.it(T, `HEAD ${name} with only-if-cached for missing block returns HTTP 412 Precondition Failed`, async () => {
      const res = await gw.get(`/ipfs/${missingCid}`, {
        method: 'HEAD',
        headers: { 'cache-control': 'only-if-cached' },
      })
      expect(res.status).toBe(412)
    })
    score.it(T, `GET ${name} on /ipfs with Accept: text/html returns HTML (dag-index-html)`, async () => {
      const res = await gw.get(`/ipfs/${f().cid}/`, { headers: { accept: 'text/html' } })
      expect(res.status).toBe(200)
      expect(res.headers.etag).toContain('DagIndex-')
      expect(res.headers['content-type']).toContain('text/html')
      expect(res.headers['content-disposition']).toBeUndefined()
      expect(res.body).toContain('</html>')
      expect([undefined, 'public, max-age=604800, stale-while-revalidate=2678400']).toContain(
        res.headers['cache-control'],
      )
    })
    rangeTests(
      T,
      `GET ${name} on /ipfs with no explicit header`,
      (headers) => gw.get(`/ipfs/${f().cid}/`, { headers }),
      () => f().raw,
      dagType,
      () => {},
      { includeFull: false },
    )
    rangeTests(
      T,
      `GET ${name} on /ipfs with dag content headers`,
      (headers) => gw.get(`/ipfs/${f().cid}/`, { headers: { accept: dagType, ...headers } }),
      () => f().raw,
      dagType,
      () => {},
      { includeFull: false },
    )
    rangeTests(
      T,
      `GET ${name} on /ipfs with non-dag content headers`,
      (headers) => gw.get(`/ipfs/${f().cid}/`, { headers: { accept: `application/${format}`, ...headers } }),
      () => f().raw,
      `application/${format}`,
      () => {},
      { includeFull: false },
    )
  }

  score.it(T, 'GET DAG-CBOR with Accept: text/html returns HTML preview', async () => {
    const res = await gw.get(`/ipfs/${fixtures.cbor!.cid}/`, { headers: { accept: 'text/html' } })
    expect(res.body).toContain('</html>')
    // the preview shows the data: the link the block holds, as dag-json writes it
    expect(textOf(res)).toContain('bafyreig5alecq2l2akgajxywgnv22kuxh6xcagsnelepylqovt4t5jxt6u')
  })
})

describe('TestGatewayJSONCborAndIPNS', () => {
  const T = 'TestGatewayJSONCborAndIPNS'
  const reason = 'Pinfold publishes no IPNS names: /ipns/ is no gateway path here (its paths are /ipfs/ only)'
  for (const { name, format, id } of [
    { name: 'plain JSON codec', format: 'json', id: 'k51qzi5uqu5dhjghbwdvbo6mi40htrq6e2z4pwgp15pgv3ho1azvidttzh8yy2' },
    { name: 'plain CBOR codec', format: 'cbor', id: 'k51qzi5uqu5dghjous0agrwavl8vzl64xckoqzwqeqwudfr74kfd11zcyk3b7l' },
  ]) {
    for (const title of [
      `GET ${name} from /ipns without explicit format returns the same payload as /ipfs`,
      `GET ${name} from /ipns with explicit format returns the same payload as /ipfs`,
      `GET ${name} from /ipns with explicit application/vnd.ipld.dag-${format} has expected headers`,
      `GET ${name} on /ipns with Accept: text/html returns HTML (dag-index-html)`,
    ]) {
      score.differs(T, title, reason, async () => {
        expect((await gw.get(`/ipns/${id}`)).status).toBe(404)
      })
    }
  }
})
