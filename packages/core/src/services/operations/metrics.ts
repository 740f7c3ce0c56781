import { Context, Metric } from "effect"
import { PrometheusMetrics } from "effect/observability"

/** What became of one delivery attempt: delivered, to be retried, or given up. */
export type DeliveryOutcome = "delivered" | "retry" | "gave_up" | "disabled"

/** Figures read from the database when metrics are scraped, rather than counted as they change. */
export interface ScrapedFigures {
  /** Whether the database answered the reads below (they are NaN when it did not). */
  readonly databaseUp: boolean
  /** Deliveries waiting to be sent (first tries and retries). */
  readonly pendingDeliveries: number
  /** How long the oldest of them has waited, in seconds; 0 when none waits. */
  readonly oldestPendingSeconds: number
  /** Database connections this process holds open, and how many of them run a statement now. */
  readonly connections: { readonly open: number; readonly busy: number; readonly max: number }
}

/**
 * The process's metrics, counted as requests are answered and rendered in the Prometheus text
 * format (through Effect's encoder) when scraped. Every recording is a few additions on numbers
 * this object holds: no effect is built, no registry key computed, on the request path.
 */
export interface MetricsRecorder {
  /** One answered request: its route template (never a concrete path), method, status and duration. */
  readonly request: (route: string, method: string, status: number, seconds: number) => void
  /** An answer replayed for an `Idempotency-Key` seen before. */
  readonly idempotencyReplay: (route: string) => void
  /** One recorded delivery attempt. */
  readonly delivery: (outcome: DeliveryOutcome) => void
  /** Everything counted so far and `figures`, as Prometheus text. */
  readonly render: (figures: ScrapedFigures) => string
}

/**
 * This process's metrics when the deployment serves them (`METRICS_TOKEN`); undefined otherwise,
 * and then nothing is counted at all.
 */
export const Metrics = Context.Reference<MetricsRecorder | undefined>("signcraft/Metrics", { defaultValue: () => undefined })

// Seconds; from a cached read (well under a millisecond) to the 10 s an outbound call may take.
const LATENCY_BOUNDARIES = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface HistogramSeries {
  readonly buckets: Float64Array
  count: number
  sum: number
  min: number
  max: number
}

// One route's and method's latencies, and its request counts by status.
interface MethodSeries {
  readonly latency: HistogramSeries
  readonly statuses: Map<number, { count: number }>
}

const newHistogram = (): HistogramSeries => ({
  buckets: new Float64Array(LATENCY_BOUNDARIES.length + 1),
  count: 0,
  sum: 0,
  min: Number.POSITIVE_INFINITY,
  max: Number.NEGATIVE_INFINITY
})

const observe = (series: HistogramSeries, value: number): void => {
  let bucket = 0
  while (bucket < LATENCY_BOUNDARIES.length && value > (LATENCY_BOUNDARIES[bucket] ?? 0)) bucket += 1
  series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1
  series.count += 1
  series.sum += value
  if (value < series.min) series.min = value
  if (value > series.max) series.max = value
}

// Effect's histogram state: cumulative counts per upper boundary, as Prometheus reads them.
const histogramState = (series: HistogramSeries): Metric.HistogramState => {
  let cumulative = 0
  const buckets: Array<[number, number]> = LATENCY_BOUNDARIES.map((boundary, index) => {
    cumulative += series.buckets[index] ?? 0
    return [boundary, cumulative]
  })
  return { buckets, count: series.count, sum: series.sum, min: series.count === 0 ? 0 : series.min, max: series.count === 0 ? 0 : series.max }
}

/**
 * A fresh recorder with a registry of its own: two apps in one process (an embedder's tests, say)
 * never count into each other's figures.
 */
export const makeMetrics = (): MetricsRecorder => {
  const registry = Context.make(Metric.MetricRegistry, new Map())
  const unchanged = () => {}
  // A series is registered with Effect's registry the first time it is met, and read back from
  // the numbers below when scraped.
  const counterSeries = (name: string, description: string, attributes: Readonly<Record<string, string>>) => {
    const series = { count: 0 }
    Metric.registerUnsafe(Metric.counter(name, { description, attributes, incremental: true }), registry, {
      get: () => ({ count: series.count, incremental: true }),
      update: unchanged,
      modify: unchanged
    })
    return series
  }
  const gauge = (name: string, description: string, attributes: Readonly<Record<string, string>> = {}) => {
    const series = { value: 0 }
    Metric.registerUnsafe(Metric.gauge(name, { description, attributes }), registry, {
      get: () => ({ value: series.value }),
      update: unchanged,
      modify: unchanged
    })
    return series
  }

  // Series by route, then method, then status: the route templates and methods are the same
  // string objects on every request, so each lookup hashes nothing new and concatenates nothing.
  const byRoute = new Map<string, Map<string, MethodSeries>>()
  const refusals = new Map<string, { count: number }>()
  const replays = new Map<string, { count: number }>()
  const deliveries = new Map<DeliveryOutcome, { count: number }>()

  const methodSeries = (route: string, method: string): MethodSeries => {
    let methods = byRoute.get(route)
    if (methods === undefined) {
      methods = new Map()
      byRoute.set(route, methods)
    }
    const known = methods.get(method)
    if (known !== undefined) return known
    const latency = newHistogram()
    Metric.registerUnsafe(
      Metric.histogram("signcraft_http_request_duration_seconds", {
        description: "Time to answer a request, by route template and method.",
        boundaries: LATENCY_BOUNDARIES,
        attributes: { route, method }
      }),
      registry,
      { get: () => histogramState(latency), update: unchanged, modify: unchanged }
    )
    const series: MethodSeries = { latency, statuses: new Map() }
    methods.set(method, series)
    return series
  }
  const statusSeries = (route: string, method: string, series: MethodSeries, status: number) => {
    const known = series.statuses.get(status)
    if (known !== undefined) return known
    const counter = counterSeries("signcraft_http_requests_total", "Requests answered, by route template, method and status.", {
      route,
      method,
      status: String(status)
    })
    series.statuses.set(status, counter)
    return counter
  }
  const counted = (map: Map<string, { count: number }>, key: string, make: () => { count: number }) => {
    const known = map.get(key)
    if (known !== undefined) return known
    const series = make()
    map.set(key, series)
    return series
  }

  const pending = gauge("signcraft_outbox_pending_deliveries", "Webhook deliveries waiting to be sent, first tries and retries.")
  const oldest = gauge("signcraft_outbox_oldest_pending_age_seconds", "How long the oldest waiting webhook delivery has waited.")
  const open = gauge("signcraft_db_pool_connections", "Database connections this process holds.", { state: "open" })
  const busy = gauge("signcraft_db_pool_connections", "Database connections this process holds.", { state: "busy" })
  const max = gauge("signcraft_db_pool_max_connections", "The most database connections this process opens.")
  const up = gauge("signcraft_database_up", "1 when the database answered this scrape's reads, else 0.")

  return {
    request: (route, method, status, seconds) => {
      const series = methodSeries(route, method)
      statusSeries(route, method, series, status).count += 1
      observe(series.latency, seconds)
      if (status === 429) {
        counted(refusals, route, () =>
          counterSeries("signcraft_rate_limit_refusals_total", "Requests refused by a rate limit (429), by route template.", { route })
        ).count += 1
      }
    },
    idempotencyReplay: (route) => {
      counted(replays, route, () =>
        counterSeries("signcraft_idempotency_replays_total", "Answers replayed for an Idempotency-Key seen before, by route template.", { route })
      ).count += 1
    },
    delivery: (outcome) => {
      const known = deliveries.get(outcome)
      const series = known ?? counterSeries("signcraft_webhook_deliveries_total", "Webhook delivery attempts, by outcome.", { outcome })
      if (known === undefined) deliveries.set(outcome, series)
      series.count += 1
    },
    render: (figures) => {
      up.value = figures.databaseUp ? 1 : 0
      pending.value = figures.pendingDeliveries
      oldest.value = figures.oldestPendingSeconds
      open.value = figures.connections.open
      busy.value = figures.connections.busy
      max.value = figures.connections.max
      return PrometheusMetrics.formatUnsafe(registry)
    }
  }
}
