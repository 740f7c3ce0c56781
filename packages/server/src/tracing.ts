import { Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { type OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import type { TraceExport } from "./config.js"

/**
 * Exports every span (a server span per request, the SQL statements and webhook deliveries
 * under it) over OTLP/HTTP as JSON to `{endpoint}/v1/traces`, as the OpenTelemetry exporter
 * specification places traces under `OTEL_EXPORTER_OTLP_ENDPOINT`. Closing the layer flushes
 * what is buffered. Without it (no endpoint) the native tracer exports nothing and the request
 * path never names a span.
 */
export const layerTraceExport = (traces: TraceExport): Layer.Layer<OtlpExporter.Flusher> =>
  OtlpTracer.layer({
    url: `${traces.endpoint}/v1/traces`,
    resource: { serviceName: traces.serviceName }
  }).pipe(
    Layer.provide(OtlpSerialization.layerJson),
    Layer.provide(FetchHttpClient.layer)
  )
