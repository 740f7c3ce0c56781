import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/** One span as OTLP/HTTP JSON carries it, with its attributes read into a plain record. */
export interface CollectedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string | undefined
  readonly name: string
  /** OTLP's SpanKind: 2 is a server span, 3 a client span. */
  readonly kind: number
  readonly attributes: Readonly<Record<string, string | number | boolean>>
}

/** A local OTLP collector: spans exported to it over HTTP (JSON), on 127.0.0.1. */
export interface OtlpCollector {
  /** The base URL to give as `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly endpoint: string
  readonly spans: ReadonlyArray<CollectedSpan>
  /** Resolves once `predicate` holds for the spans so far; fails after `timeoutMs`. */
  readonly waitFor: (predicate: (spans: ReadonlyArray<CollectedSpan>) => boolean, timeoutMs?: number) => Promise<void>
  readonly close: () => Promise<void>
}

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: string | number
  readonly doubleValue?: number
  readonly boolValue?: boolean
}

const attributeValue = (value: OtlpValue): string | number | boolean =>
  value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.doubleValue ?? value.boolValue ?? ""

interface OtlpExport {
  readonly resourceSpans?: ReadonlyArray<{
    readonly scopeSpans?: ReadonlyArray<{
      readonly spans?: ReadonlyArray<{
        readonly traceId: string
        readonly spanId: string
        readonly parentSpanId?: string
        readonly name: string
        readonly kind: number
        readonly attributes?: ReadonlyArray<{ readonly key: string; readonly value: OtlpValue }>
      }>
    }>
  }>
}

/** Starts a collector that accepts `POST /v1/traces` in the OTLP/HTTP JSON encoding and keeps every span. */
export const startOtlpCollector = async (): Promise<OtlpCollector> => {
  const spans: Array<CollectedSpan> = []
  const waiters = new Set<() => void>()
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end()
        return
      }
      const exported = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport
      for (const resource of exported.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId === "" ? undefined : span.parentSpanId,
              name: span.name,
              kind: span.kind,
              attributes: Object.fromEntries((span.attributes ?? []).map((attribute) => [attribute.key, attributeValue(attribute.value)]))
            })
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
      for (const wake of waiters) wake()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  const waitFor = (predicate: (spans: ReadonlyArray<CollectedSpan>) => boolean, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate(spans)) return
        clearTimeout(timer)
        waiters.delete(check)
        resolve()
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`the collector did not get the spans within ${timeoutMs} ms; it has ${spans.map((span) => span.name).join(", ")}`))
      }, timeoutMs)
      waiters.add(check)
      check()
    })
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
