import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { mintToken, SCOPES } from '@pinfold/core'
import { form, startTestApi, TEST_SECRET } from '@pinfold/testing/test-api'
import { describe, expect, it } from 'vitest'
import { readConfig, startServer, startTracing } from '../src/index.js'

/** The span's parent's id (SDK 2 names it `parentSpanContext`). */
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId

describe('tracing (OpenTelemetry)', () => {
  it('spans - request → service operation → store calls, one trace, with the request id of the logs', async () => {
    const exporter = new InMemorySpanExporter()
    const tracing = startTracing([new SimpleSpanProcessor(exporter)])
    const server = await startTestApi({ tracer: tracing.tracer, storage: 'memory', embedder: null })
    try {
      const res = await server.api('/v3/files', {
        method: 'POST',
        body: form({ network: 'public' }, { bytes: 'traced bytes', name: 't.txt' }),
        headers: { 'x-request-id': 'trace-me-1' },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-request-id')).toBe('trace-me-1')
      const spans = exporter.getFinishedSpans()
      const request = spans.find((s) => s.name === 'POST /v3/files')!
      expect(request.attributes).toMatchObject({
        'pinfold.request_id': 'trace-me-1',
        'http.route': '/v3/files',
        'http.response.status_code': 200,
        'pinfold.tenant': 'acme',
      })
      const upload = spans.find((s) => s.name === 'files.upload')!
      expect(parentOf(upload)).toBe(request.spanContext().spanId)
      const created = spans.find((s) => s.name === 'records.files.createFile')!
      expect(created.spanContext().traceId).toBe(request.spanContext().traceId)
      // the store call sits under the operation (directly or through the upload pipeline's calls)
      const ancestors = new Set<string>()
      for (
        let at: ReadableSpan | undefined = created;
        at;
        at = spans.find((s) => s.spanContext().spanId === parentOf(at!))
      )
        ancestors.add(at.name)
      expect(ancestors).toContain('files.upload')
      expect(
        spans.some((s) => s.name.startsWith('blobs.') && s.spanContext().traceId === request.spanContext().traceId),
      ).toBe(true)
      // a failed operation's span says so; the answer is the same as without tracing
      exporter.reset()
      const missing = await server.api('/v3/files/public/01a20000-0000-7000-8000-000000000000')
      expect(missing.status).toBe(404)
      const get = exporter.getFinishedSpans().find((s) => s.name === 'files.get')
      expect(get?.status).toMatchObject({ code: 2, message: 'NOT_FOUND' })
    } finally {
      await server.close()
      await tracing.close()
    }
  })

  it('OTLP - a real OTLP/HTTP receiver gets the spans when PINFOLD_OTLP_ENDPOINT is set', async () => {
    const received: { path: string; type: string | undefined; body: string }[] = []
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          type: req.headers['content-type'],
          body: Buffer.concat(chunks).toString(),
        })
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
    const running = await startServer(
      readConfig({
        PORT: '0',
        PINFOLD_STORAGE: 'memory',
        PINFOLD_AUTH_SECRET: TEST_SECRET,
        PINFOLD_OTLP_ENDPOINT: endpoint,
      }),
    )
    try {
      const token = await mintToken(TEST_SECRET, { sub: 'a', org: 'acme', scopes: SCOPES, expiresIn: '1h' })
      const res = await fetch(`${running.url}/v3/files/public`, {
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'otlp-req-7' },
      })
      expect(res.status).toBe(200)
    } finally {
      await running.close() // exports what the batch still holds
      receiver.close()
    }
    expect(received.length).toBeGreaterThan(0)
    expect(received[0]).toMatchObject({ path: '/v1/traces', type: 'application/json' })
    type Attribute = { key: string; value: { stringValue?: string } }
    type Span = { name: string; attributes: Attribute[] }
    const spans: Span[] = received.flatMap((r) =>
      (JSON.parse(r.body) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] }).resourceSpans.flatMap((rs) =>
        rs.scopeSpans.flatMap((ss) => ss.spans),
      ),
    )
    const request = spans.find((s) => s.name === 'GET /v3/files/:network')
    expect(request?.attributes).toContainEqual({ key: 'pinfold.request_id', value: { stringValue: 'otlp-req-7' } })
    expect(spans.map((s) => s.name)).toContain('files.list')
    expect(spans.map((s) => s.name)).toContain('records.files.listFiles')
  })

  it('config - the standard OTEL variables, PINFOLD_OTLP_ENDPOINT first; a bad URL refused at start-up', () => {
    expect(readConfig({}).otlpTracesUrl).toBeUndefined()
    expect(readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }).otlpTracesUrl).toBe('http://c:4318/v1/traces')
    expect(readConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c/t' }).otlpTracesUrl).toBe('https://c/t')
    expect(
      readConfig({ PINFOLD_OTLP_ENDPOINT: 'http://p:4318', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://o:4318' })
        .otlpTracesUrl,
    ).toBe('http://p:4318/v1/traces')
    expect(() => readConfig({ PINFOLD_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /PINFOLD_OTLP_ENDPOINT.*http\(s\) URL/,
    )
  })
})
