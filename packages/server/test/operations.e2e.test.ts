import { existsSync } from "node:fs"
import { createServer } from "node:http"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { type Receiver, startReceiver } from "@signcraft/test-kit/receiver"
import { type OtlpCollector, startOtlpCollector } from "./support/otlp-collector.js"
import { freePort, type ServerProcess, startServer, waitForHealthy, within } from "./support/server-process.js"

// The reference server as it runs in production (docs/operations.md): JSON request lines, a
// scraped `/metrics`, spans exported to a local OTLP collector, and a SIGTERM with requests in
// flight that all complete before it exits 0 with the database closed.

const OPERATOR_TOKEN = `op_${Math.random().toString(36).slice(2)}_operations_test_token`
const METRICS_TOKEN = `metrics_${Math.random().toString(36).slice(2)}_operations`
const PASSWORD = `pw-${Math.random().toString(36).slice(2)}-Operations!`
const IN_FLIGHT = 3

type Json = Record<string, unknown> & { readonly data?: Record<string, unknown> & ReadonlyArray<Record<string, unknown>> }

describe.each(databaseVariants())("the server in operation ($name database)", (variant) => {
  let db: TestDatabase | undefined
  let server: ServerProcess | undefined
  let collector: OtlpCollector | undefined
  let receiver: Receiver | undefined
  let base = ""
  // The test deliveries are held at the receiver until released: while held, their requests are in flight.
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const secrets: Array<string> = [OPERATOR_TOKEN, METRICS_TOKEN, PASSWORD]

  beforeAll(async () => {
    db = await variant.create()
    collector = await startOtlpCollector()
    receiver = await startReceiver(() => 200)
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    const database: Record<string, string> = db.config._tag === "Postgres"
      ? { DATABASE_URL: db.config.url }
      : { DATA_DIR: db.config.location === "memory" ? "" : db.config.location.dataDir }
    server = startServer([], {
      ...database,
      PORT: String(port),
      OPERATOR_TOKEN,
      METRICS_TOKEN,
      LOG_FORMAT: "json",
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      SIGNCRAFT_ENV: "test"
    })
    await waitForHealthy(`${base}/healthz`, () => {}, 150_000)
  }, 180_000)

  afterAll(async () => {
    release()
    if (server !== undefined && server.child.exitCode === null) {
      server.child.kill("SIGKILL")
      await within(server.exited, 20_000, "the server's exit")
    }
    await receiver?.close()
    await collector?.close()
    await db?.cleanup()
  })

  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    const parsed = (text === "" || !text.startsWith("{") ? {} : JSON.parse(text)) as Json
    return { status: response.status, headers: response.headers, body: parsed, text }
  }

  let storeId = 0
  let apiKey = ""
  let subscriptionId = 0
  let customiserId = 0

  it("is ready, serves /metrics to its token and counts deliveries by outcome", async () => {
    expect((await call("GET", "/readyz")).status).toBe(200)
    const company = await call("POST", "/operator/v1/companies", OPERATOR_TOKEN, { name: "Operations" })
    const store = await call("POST", "/operator/v1/stores", OPERATOR_TOKEN, { company_id: company.body.id, name: "Operations" })
    storeId = Number(store.body.id)
    const person = await call("POST", "/operator/v1/persons", OPERATOR_TOKEN, { company_id: company.body.id, email: "ops@example.com", password: PASSWORD })
    expect(person.status).toBe(201)
    const key = await call("POST", `/operator/v1/stores/${storeId}/api-keys`, OPERATOR_TOKEN, {
      mode: "test",
      scopes: ["store:read", "webhooks:read", "webhooks:write"]
    })
    apiKey = String(key.body.key)
    secrets.push(apiKey)
    const customiser = await call("POST", `/operator/v1/stores/${storeId}/customisers`, OPERATOR_TOKEN, {
      name: "Quote form",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    customiserId = Number(customiser.body.id)
    const subscription = await call("POST", "/api/v3/webhook-subscriptions", apiKey, {
      topic: "form:submitted",
      url: receiver?.url("/hook") ?? ""
    })
    expect(subscription.status).toBe(201)
    subscriptionId = Number(subscription.body.data?.id)
    secrets.push(String(subscription.body.data?.secret))

    const submitted = await call("POST", `/storefront/v1/customisers/${customiser.body.id}/form-submissions`, undefined, {
      responses: [{ field_id: "email", name: "Email", input_type: "EMAIL", value: "shopper@example.com" }]
    })
    expect(submitted.status).toBe(201)
    await receiver?.waitFor((received) => received.some((delivery) => delivery.headers["x-webhook-topic"] === "form:submitted"))

    expect((await call("GET", "/metrics")).status).toBe(401)
    expect((await call("GET", "/metrics", "not-the-token")).status).toBe(401)
    // The delivery is recorded after the receiver answered: scrape until it is counted.
    let text = ""
    const deadline = Date.now() + 20_000
    while (!text.includes(`signcraft_webhook_deliveries_total{outcome="delivered"} 1`)) {
      if (Date.now() > deadline) throw new Error(`no delivery counted:\n${text}`)
      const scraped = await call("GET", "/metrics", METRICS_TOKEN)
      expect(scraped.status).toBe(200)
      text = scraped.text
    }
    expect(text).toContain(`signcraft_http_requests_total{route="/storefront/v1/customisers/:customiser_id/form-submissions",method="POST",status="201"} 1`)
    expect(text).toContain(`signcraft_http_requests_total{route="/operator/v1/stores/:store_id/api-keys",method="POST",status="201"} 1`)
    expect(text).toMatch(/^signcraft_outbox_pending_deliveries \d+$/m)
    expect(text).toMatch(/^signcraft_db_pool_connections\{state="open"\} [1-9]\d*$/m)
    expect(text).toContain("signcraft_database_up 1")
  }, 60_000)

  it("exports a server span per request named by its route template, with its request id, Store and status, over its SQL statements", async () => {
    const listed = await call("GET", `/api/v3/webhook-subscriptions/${subscriptionId}/deliveries`, apiKey)
    expect(listed.status).toBe(200)
    const requestId = listed.headers.get("x-request-id")
    const name = "GET /api/v3/webhook-subscriptions/:webhook_id/deliveries"
    await collector?.waitFor((spans) => spans.some((span) => span.attributes["signcraft.request_id"] === requestId))
    const spans = collector?.spans ?? []
    const request = spans.find((span) => span.attributes["signcraft.request_id"] === requestId)
    expect(request).toMatchObject({
      name,
      kind: 2,
      attributes: { "signcraft.store_id": storeId, "http.response.status_code": 200, "http.route": "/api/v3/webhook-subscriptions/:webhook_id/deliveries" }
    })
    // Its statements are spans of its trace, each under a span of that trace, down from the request's.
    const ofTrace = spans.filter((span) => span.traceId === request?.traceId)
    const statements = ofTrace.filter((span) => typeof span.attributes["db.query.text"] === "string")
    expect(statements.length).toBeGreaterThan(0)
    const ids = new Set(ofTrace.map((span) => span.spanId))
    for (const statement of statements) expect(ids.has(statement.parentSpanId ?? "")).toBe(true)
    // The handler and the service method it calls are spans named for them, one inside the other.
    const handler = ofTrace.find((span) => span.name === "v3Webhooks.listDeliveries")
    expect(handler).toBeDefined()
    expect(ofTrace.find((span) => span.name === "WebhookDeliveries.listForSubscription")?.parentSpanId).toBe(handler?.spanId)
    // No span anywhere is named by a concrete path.
    for (const span of spans.filter((candidate) => candidate.kind === 2)) expect(span.name).not.toMatch(/\/\d+(\/|$)/)
    // The delivery worker's attempts are spans too, naming the receiver's origin only.
    await collector?.waitFor((all) => all.some((span) => span.name === "DeliveryWorker.attempt"))
    expect(spans.find((span) => span.name === "DeliveryWorker.attempt")?.attributes["server.origin"]).toBe(receiver?.url("").replace(/\/$/, ""))
  }, 60_000)

  it("finishes every request in flight on SIGTERM, closes the database and exits 0", async () => {
    const running = server
    if (running === undefined) throw new Error("no server")
    // A finished design is handed to the integration's create-product URL before it is answered;
    // this integrator answers once released, so until then the requests are in flight.
    const heldUrl = await holdingReceiver(released)
    const integration = await call("POST", `/operator/v1/stores/${storeId}/integrations`, OPERATOR_TOKEN, { create_product_url: heldUrl.url })
    expect(integration.status).toBe(201)
    secrets.push(String(integration.body.signing_secret))
    const inFlight = Array.from({ length: IN_FLIGHT }, (_, index) =>
      call("POST", `/storefront/v1/customisers/${customiserId}/designs`, undefined, {
        integration_id: integration.body.id,
        title: `In flight ${index}`,
        price: 24900,
        currency: "USD"
      }))
    await heldUrl.arrived(IN_FLIGHT)

    running.child.kill("SIGTERM")
    // Signalled: the listener closes; the requests already received go on.
    await waitUntilRefused(`${base}/healthz`)
    release()
    const answers = await Promise.all(inFlight)
    for (const answer of answers) expect(answer.status, answer.text).toBe(201)
    expect(await within(running.exited, 20_000, "the server's exit")).toBe(0)
    expect(running.stderr()).not.toMatch(/did not finish in time/)
    if (db?.config._tag === "Embedded" && db.config.location !== "memory") {
      // A database closed cleanly leaves no lock file: the next start needs no crash recovery.
      expect(existsSync(join(db.config.location.dataDir, "postmaster.pid"))).toBe(false)
    }
    await heldUrl.close()
  }, 90_000)

  it("logged one JSON object per request, with its route template and Store, and no secret anywhere", () => {
    const running = server
    if (running === undefined) throw new Error("no server")
    const records = running.stdout().filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>)
    const requests = records.filter((record) => record.level === "info" && "request_id" in record)
    expect(requests.length).toBeGreaterThan(10)
    for (const record of requests) {
      expect(Object.keys(record)).toEqual(expect.arrayContaining(["time", "request_id", "method", "route", "status", "duration_ms"]))
      expect(String(record.route)).not.toMatch(/\/\d+(\/|$)/)
    }
    expect(requests.find((record) => record.route === "/api/v3/webhook-subscriptions/:webhook_id/deliveries")).toMatchObject({
      method: "GET",
      status: 200,
      store_id: storeId
    })
    const everything = running.stdout().join("\n") + running.stderr()
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8)
      expect(everything).not.toContain(secret)
    }
  })
})

// Whether nothing listens on the port any more.
const waitUntilRefused = async (url: string) => {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      await fetch(url)
    } catch {
      return
    }
    if (Date.now() > deadline) throw new Error(`${url} still answers`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

// A receiver whose every request waits for `released` before it is answered 200.
const holdingReceiver = async (released: Promise<void>) => {
  let count = 0
  const waiters = new Set<() => void>()
  const server = createServer((req, res) => {
    req.resume()
    count += 1
    for (const wake of waiters) wake()
    const externalId = `held_${count}`
    void released.then(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ external_id: externalId })))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/held`,
    arrived: (expected: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (count < expected) return
          waiters.delete(check)
          resolve()
        }
        waiters.add(check)
        check()
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
