import { context, type Tracer } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base'

/** Tracing as the server runs it: the tracer to hand the service and the handler, and its shutdown. */
export interface RunningTracing {
  tracer: Tracer
  /** Exports the spans still buffered, then stops. */
  close(): Promise<void>
}

/**
 * The OTLP/HTTP exporter (JSON) to `url` behind a batching processor: spans leave in batches, off
 * the request path. `OTEL_EXPORTER_OTLP_HEADERS` and the exporter's other standard variables apply.
 */
export function startOtlpTracing(url: string): RunningTracing {
  return startTracing([new BatchSpanProcessor(new OTLPTraceExporter({ url }))])
}

/**
 * A tracer provider of the server's own (not registered as the global one: an embedding
 * application keeps its own), with the AsyncLocalStorage context manager that makes a request's
 * span the parent of what it awaits. The context manager is process-wide; one set already (by the
 * host application's SDK) is kept.
 */
export function startTracing(processors: SpanProcessor[]): RunningTracing {
  const manager = new AsyncLocalStorageContextManager().enable()
  if (!context.setGlobalContextManager(manager)) manager.disable()
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'pinfold' }),
    spanProcessors: processors,
  })
  return { tracer: provider.getTracer('pinfold'), close: () => provider.shutdown() }
}
