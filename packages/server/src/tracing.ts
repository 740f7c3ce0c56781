import { Layer, References } from "effect"
import { FetchHttpClient } from "effect/http"
import { type OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import type { TraceExport } from "./config.js"

/**
 * Exports every span (a server span per request, the SQL statements and webhook deliveries
 * under it) over OTLP/HTTP as JSON to `{endpoint}/v1/traces`, as the OpenTelemetry exporter
 * specification places traces under `OTEL_EXPORTER_OTLP_ENDPOINT`. Closing the layer flushes
 * what is buffered.
 */
export const layerTraceExport = (traces: TraceExport): Layer.Layer<OtlpExporter.Flusher> =>
  OtlpTracer.layer({
    url: `${traces.endpoint}/v1/traces`,
    resource: { serviceName: traces.serviceName }
  }).pipe(
    Layer.provide(OtlpSerialization.layerJson),
    Layer.provide(FetchHttpClient.layer)
  )

/**
 * Spans off, for a server with no endpoint to send them to. The native tracer would still make
 * every span (each `Effect.fn` call, SQL statement and request: a clock reading, attributes) and
 * drop it; with the tracer disabled they are no-ops, so tracing costs nothing when it is off.
 */
export const layerTracesOff: Layer.Layer<never> = Layer.succeed(References.TracerEnabled, false)

/** What the server does with its spans: export them to `traces`, or, without an endpoint, make none. */
export const layerTracing = (traces: TraceExport | undefined): Layer.Layer<OtlpExporter.Flusher> | Layer.Layer<never> =>
  traces === undefined ? layerTracesOff : layerTraceExport(traces)
