import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { ConnectionError, SqlError, UnknownError } from "effect/sql/SqlError"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { classifyRequestError } from "../../src/http/middleware/request-failures.js"
import { describeFailure } from "../../src/presenters/failure-table.js"
import { createCustomiser, databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"

// The probes, `/metrics` and the request log line (docs/operations.md), through the real handler.

const METRICS_TOKEN = "metrics_token_for_the_operations_test_0123"

type LogLine = Readonly<Record<string, string | number>>

// The samples of one metric: each label set (as Prometheus prints it) with its value.
const samplesOf = (text: string, name: string): ReadonlyArray<{ readonly labels: string; readonly value: number }> =>
  text.split("\n").flatMap((line) => {
    const match = new RegExp(`^${name}(?:\\{(.*)\\})? (\\S+)$`).exec(line)
    return match === null ? [] : [{ labels: match[1] ?? "", value: Number(match[2]) }]
  })

const sampleValue = (text: string, name: string, labels: string): number | undefined =>
  samplesOf(text, name).find((sample) => sample.labels === labels)?.value

describe("an unreachable database", () => {
  it("is a 503 service_unavailable with Retry-After, and a failed statement stays a 500", () => {
    const lost = new SqlError({ reason: new ConnectionError({ cause: new Error("ECONNRESET"), message: "connection lost" }) })
    const restarting = new SqlError({
      reason: new UnknownError({ cause: Object.assign(new Error("terminating connection"), { code: "57P01" }), message: "admin shutdown" })
    })
    const broken = new SqlError({
      reason: new UnknownError({ cause: Object.assign(new Error("division by zero"), { code: "22012" }), message: "bad statement" })
    })
    for (const error of [lost, restarting]) {
      const described = describeFailure(classifyRequestError(error, 1024))
      expect(described).toMatchObject({ status: 503, code: "service_unavailable", retryAfter: 5 })
    }
    expect(describeFailure(classifyRequestError(broken, 1024))).toMatchObject({ status: 500, code: "internal_error" })
  })
})

describe.each(databaseVariants())("operations ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  const lines: Array<LogLine> = []

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(
      db.config,
      { metricsToken: Redacted.make(METRICS_TOKEN), rateLimitPerKeyPerMinute: 3, rateLimitPerIpPerMinute: 100_000 },
      { log: (line) => lines.push(line) }
    )
    await app.call("GET", "/healthz")
  }, 240_000)
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const scrape = async (token = METRICS_TOKEN) => {
    const response = await app.handler(new Request("http://127.0.0.1/metrics", { headers: { authorization: `Bearer ${token}` } }))
    return { status: response.status, headers: response.headers, text: await response.text() }
  }

  const latestMigration = () =>
    app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly migration_id: number; readonly name: string }>`
        SELECT migration_id, name FROM signcraft_migrations ORDER BY migration_id DESC LIMIT 1`
      return rows[0]
    }))

  it("answers /readyz 200 while migrated, and 503 service_unavailable with Retry-After when the database lags behind", async () => {
    const ready = await app.call("GET", "/readyz")
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ status: "ready" })
    expect((await app.call("GET", "/healthz")).body).toEqual({ status: "ok" })

    // A database migrated by an older release than this one is not ready for it.
    const latest = await latestMigration()
    if (latest === undefined) throw new Error("no migration recorded")
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`DELETE FROM signcraft_migrations WHERE migration_id = ${latest.migration_id}`
    }))
    const lagging = await app.call("GET", "/readyz")
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO signcraft_migrations (migration_id, name) VALUES (${latest.migration_id}, ${latest.name})`
    }))
    expect(lagging.status).toBe(503)
    expect(lagging.headers.get("retry-after")).toBe("5")
    expect(lagging.headers.get("content-type")).toContain("application/problem+json")
    expect(lagging.body).toMatchObject({ status: 503, code: "service_unavailable", retry_after: 5 })
    // Liveness is not readiness: the process itself is fine.
    expect((await app.call("GET", "/healthz")).status).toBe(200)
    expect((await app.call("GET", "/readyz")).status).toBe(200)
  })

  it("answers /metrics only to METRICS_TOKEN: 401 without it or with another", async () => {
    const missing = await app.handler(new Request("http://127.0.0.1/metrics"))
    expect(missing.status).toBe(401)
    expect(((await missing.json()) as { code: string }).code).toBe("missing_metrics_token")
    const wrong = await scrape("not_the_metrics_token")
    expect(wrong.status).toBe(401)
    expect(JSON.parse(wrong.text).code).toBe("invalid_metrics_token")
    const right = await scrape()
    expect(right.status).toBe(200)
    expect(right.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8")
  })

  it("counts requests by route template, method and status, never by a concrete id, with latency histograms", async () => {
    const seed = await app.seedStore({ scopes: ["pricing:read", "pricing:write"] })
    const customiser = await createCustomiser(app, seed.storeId)
    const read = await app.call("GET", `/api/v3/customisers/${customiser.id}/pricing`, { key: seed.key })
    expect(read.status).toBe(200)
    const { text } = await scrape()
    const template = "/api/v3/customisers/:customiser_id/pricing"
    expect(sampleValue(text, "signcraft_http_requests_total", `route="${template}",method="GET",status="200"`)).toBe(1)
    expect(sampleValue(text, "signcraft_http_request_duration_seconds_count", `route="${template}",method="GET"`)).toBe(1)
    expect(sampleValue(text, "signcraft_http_request_duration_seconds_bucket", `route="${template}",method="GET",le="+Inf"`)).toBe(1)
    expect(sampleValue(text, "signcraft_http_requests_total", `route="/operator/v1/stores/:store_id/customisers",method="POST",status="201"`))
      .toBe(1)
    // No label anywhere names the customiser, the Store or any other id.
    const labels = text.split("\n").filter((line) => !line.startsWith("#")).map((line) => /\{(.*)\}/.exec(line)?.[1] ?? "")
    for (const label of labels) expect(label).not.toMatch(/\/\d+(\/|"|$)/)
    // A path nothing serves is counted, but under one label whatever the path was.
    await app.call("GET", `/no/such/path/${customiser.id}`)
    expect(sampleValue((await scrape()).text, "signcraft_http_requests_total", `route="unmatched",method="GET",status="404"`)).toBe(1)
  })

  it("counts idempotent replays and rate-limit refusals by route template", async () => {
    const seed = await app.seedStore({ scopes: ["pricing:read", "pricing:write"] })
    const customiser = await createCustomiser(app, seed.storeId)
    const put = () =>
      app.call("PUT", `/api/v3/customisers/${customiser.id}/pricing`, { key: seed.key, body: { sizes: [] }, headers: { "idempotency-key": "replayed-1" } })
    expect((await put()).status).toBe(200)
    expect((await put()).headers.get("idempotency-replay")).toBe("true")
    expect((await put()).headers.get("idempotency-replay")).toBe("true")
    // The key's quota is 3 a minute: the requests above spent it.
    const refused = await put()
    expect(refused.status).toBe(429)
    const { text } = await scrape()
    const template = "/api/v3/customisers/:customiser_id/pricing"
    expect(sampleValue(text, "signcraft_idempotency_replays_total", `route="${template}"`)).toBe(2)
    expect(sampleValue(text, "signcraft_rate_limit_refusals_total", `route="${template}"`)).toBe(1)
    expect(sampleValue(text, "signcraft_http_requests_total", `route="${template}",method="PUT",status="429"`)).toBe(1)
  })

  it("reports the outbox backlog, the age of its oldest delivery and the database connections", async () => {
    const { text } = await scrape()
    expect(sampleValue(text, "signcraft_database_up", "")).toBe(1)
    expect(sampleValue(text, "signcraft_outbox_pending_deliveries", "")).toBe(0)
    expect(sampleValue(text, "signcraft_outbox_oldest_pending_age_seconds", "")).toBe(0)
    const max = sampleValue(text, "signcraft_db_pool_max_connections", "")
    const open = sampleValue(text, "signcraft_db_pool_connections", `state="open"`)
    expect(max).toBe(variant.name === "postgres" ? 10 : 1)
    expect(open).toBeGreaterThanOrEqual(1)
    expect(open).toBeLessThanOrEqual(max ?? 0)
  })

  it("logs the route template, status, duration and the Store of each request", async () => {
    const seed = await app.seedStore({ scopes: ["pricing:read"] })
    const customiser = await createCustomiser(app, seed.storeId)
    const read = await app.call("GET", `/api/v3/customisers/${customiser.id}/pricing`, { key: seed.key })
    const line = lines.find((candidate) => candidate.request_id === read.headers.get("x-request-id"))
    expect(line).toEqual({
      level: "info",
      request_id: read.headers.get("x-request-id"),
      method: "GET",
      route: "/api/v3/customisers/:customiser_id/pricing",
      status: 200,
      duration_ms: expect.any(Number),
      store_id: seed.storeId
    })
  })
})

describe("without METRICS_TOKEN", () => {
  const app = startApp({ _tag: "Embedded", location: "memory" })
  afterAll(() => app.dispose())

  it("answers /metrics 404 exactly as an unknown path", async () => {
    const metrics = await app.handler(new Request("http://127.0.0.1/metrics", { headers: { authorization: "Bearer anything" } }))
    const unknown = await app.handler(new Request("http://127.0.0.1/no-such-path", { headers: { authorization: "Bearer anything" } }))
    expect(metrics.status).toBe(404)
    const [metricsBody, unknownBody] = [await metrics.json(), await unknown.json()] as Array<Record<string, unknown>>
    expect({ ...metricsBody, request_id: "" }).toEqual({ ...unknownBody, request_id: "" })
  })
})
