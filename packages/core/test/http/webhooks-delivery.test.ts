import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyWebhook } from "../../src/domain/webhooks/signature.js"
import { sampleEventPayload } from "../../src/domain/webhooks/topics.js"
import { Outbox } from "../../src/services/webhooks/outbox.js"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { startIntegrator } from "@signcraft/test-kit/integrator"
import { jsonOf, type ReceivedDelivery, type Receiver, startReceiver } from "@signcraft/test-kit/receiver"

const SCOPES = ["webhooks:read", "webhooks:write", "quotes:read"]

describe.each(databaseVariants())("webhook delivery to a real receiver ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  let receiver: Receiver
  // Fails the first two attempts of every delivery sent to /flaky, then accepts.
  const answer = (request: ReceivedDelivery, previous: number) => (request.path === "/flaky" && previous < 2 ? 500 : 200)

  beforeAll(async () => {
    db = await variant.create()
    receiver = await startReceiver(answer)
    app = startApp(
      db.config,
      { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000, webhookRetryBaseMs: 20 },
      { deliveryWorker: { pollIntervalMs: 20 } }
    )
    expect((await app.call("GET", "/healthz")).status).toBe(200)
  })
  afterAll(async () => {
    await app.dispose()
    await receiver.close()
    await db.cleanup()
  })

  const subscribe = async (key: string, topic: string, path: string) => {
    const res = await app.call("POST", "/api/v3/webhook-subscriptions", { key, body: { topic, url: receiver.url(path) } })
    expect(res.status).toBe(201)
    return { id: res.body.data.id as number, secret: res.body.data.secret as string }
  }
  const enqueue = (storeId: number, topic: "product:created" | "order:created", payload: unknown) =>
    app.run(Effect.gen(function*() {
      const outbox = yield* Outbox
      return yield* outbox.enqueue(storeId, topic, payload)
    }))
  const createCustomiser = async (storeId: number) => {
    const res = await app.operator("POST", `/stores/${storeId}/customisers`, {
      name: "Quote form",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    return res.body.id as number
  }
  const at = (path: string) => receiver.received.filter((r) => r.path === path)

  it("delivers every topic, signed with the subscription's secret, to that Store's subscriptions only", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const other = await app.seedStore({ scopes: SCOPES })
    const product = await subscribe(seed.key, "product:created", "/s1/product")
    const order = await subscribe(seed.key, "order:created", "/s1/order")
    const form = await subscribe(seed.key, "form:submitted", "/s1/form")
    await subscribe(other.key, "order:created", "/s2/order")

    const productBody = sampleEventPayload("product:created")
    const orderBody = sampleEventPayload("order:created")
    await enqueue(seed.storeId, "product:created", productBody)
    await enqueue(seed.storeId, "order:created", orderBody)
    const customiserId = await createCustomiser(seed.storeId)
    const responses = [{ field_id: "email", name: "Email", input_type: "EMAIL", value: "a@example.com" }]
    const submitted = await app.call("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, { body: { responses } })
    expect(submitted.status).toBe(201)

    await receiver.waitFor(() => at("/s1/product").length === 1 && at("/s1/order").length === 1 && at("/s1/form").length === 1)
    const cases = [
      { path: "/s1/product", topic: "product:created", secret: product.secret, body: productBody },
      { path: "/s1/order", topic: "order:created", secret: order.secret, body: orderBody }
    ]
    for (const c of cases) {
      const [delivery] = at(c.path)
      if (delivery === undefined) throw new Error(`nothing at ${c.path}`)
      expect(delivery.headers["x-webhook-topic"]).toBe(c.topic)
      expect(delivery.headers["content-type"]).toBe("application/json")
      expect(delivery.headers["x-webhook-id"]).toMatch(/^evt_\d+$/)
      expect(delivery.headers["x-webhook-timestamp"]).toMatch(/^\d+$/)
      expect(delivery.headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/)
      expect(verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers, secret: c.secret })).toEqual({ ok: true })
      expect(verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers, secret: form.secret }).ok).toBe(false)
      // The body is the payload exactly as enqueued, field order included.
      expect(delivery.rawBody.toString("utf8")).toBe(JSON.stringify(c.body))
    }
    const [formDelivery] = at("/s1/form")
    if (formDelivery === undefined) throw new Error("no form delivery")
    expect(formDelivery.headers["x-webhook-topic"]).toBe("form:submitted")
    expect(verifyWebhook({ rawBody: formDelivery.rawBody, headers: formDelivery.headers, secret: form.secret })).toEqual({ ok: true })
    const body = jsonOf(formDelivery)
    expect(Object.keys(body)).toEqual(["form_submission"])
    expect(body.form_submission).toMatchObject({
      submission_number: 1,
      type: "custom_form_submission",
      form: { form_id: customiserId, customiser_id: customiserId, label: "Quote form" },
      responses: [{ field_id: "email", value: "a@example.com", name: "Email", input_type: "EMAIL" }]
    })
    expect(body.form_submission.created_at).toMatch(/\.\d{6}Z$/)

    // The other Store's subscription got nothing of this Store's events.
    expect(at("/s2/order")).toHaveLength(0)

    // The attempt is recorded just after the receiver answers.
    await waitForStatus(seed.key, order.id, "delivered")
    const log = await app.call("GET", `/api/v3/webhook-subscriptions/${order.id}/deliveries`, { key: seed.key })
    expect(log.status).toBe(200)
    expect(log.body.data).toHaveLength(1)
    expect(log.body.data[0]).toMatchObject({
      object: "webhook_delivery",
      // The delivery names its subscription, and the message its receiver deduplicates on.
      subscription_id: order.id,
      message_id: at("/s1/order")[0]?.headers["x-webhook-id"],
      webhook_id: at("/s1/order")[0]?.headers["x-webhook-id"],
      topic: "order:created",
      status: "delivered",
      attempt_count: 1,
      next_attempt_at: null,
      last_error: null
    })
    expect(log.body.data[0].attempts).toEqual([
      {
        attempt_number: 1,
        started_at: expect.stringMatching(/Z$/),
        duration_ms: expect.any(Number),
        response_status: 200,
        response_body: JSON.stringify({ ok: true }),
        error: null,
        status: "delivered",
        next_attempt_at: null,
        trigger: "scheduled"
      }
    ])
  })

  it("delivers the events of real changes: a storefront design and a v3 order", async () => {
    const integrator = await startIntegrator()
    try {
      const seed = await app.seedStore({ scopes: [...SCOPES, "orders:write"] })
      const product = await subscribe(seed.key, "product:created", "/real/product")
      const order = await subscribe(seed.key, "order:created", "/real/order")
      const customiserId = await createCustomiser(seed.storeId)
      const integration = await app.operator("POST", `/stores/${seed.storeId}/integrations`, { create_product_url: integrator.url })
      integrator.useSecret(integration.body.signing_secret)
      const design = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, {
        body: {
          integration_id: integration.body.id,
          title: "OPEN in pink neon",
          price: 24900,
          currency: "USD",
          customisations: [{ key: "text", label: "Text", value: "OPEN" }],
          product_image_url: "https://cdn.example.com/designs/open.png"
        }
      })
      expect(design.status).toBe(201)
      const placed = await app.call("POST", "/api/v3/orders", {
        key: seed.key,
        body: {
          integration_id: integration.body.id,
          store_order_id: "1001",
          store_order_number: "#1001",
          total_amount: 24900,
          currency: "USD",
          line_items: [{ product_id: design.body.product_id, quantity: 1 }]
        }
      })
      expect(placed.status).toBe(201)
      await receiver.waitFor(() => at("/real/product").length === 1 && at("/real/order").length === 1)

      const [productDelivery] = at("/real/product")
      const [orderDelivery] = at("/real/order")
      if (productDelivery === undefined || orderDelivery === undefined) throw new Error("missing deliveries")
      expect(verifyWebhook({ rawBody: productDelivery.rawBody, headers: productDelivery.headers, secret: product.secret })).toEqual({ ok: true })
      expect(verifyWebhook({ rawBody: orderDelivery.rawBody, headers: orderDelivery.headers, secret: order.secret })).toEqual({ ok: true })
      // The subscription gets the body the integration's create-product URL got, under the same event id.
      const callback = integrator.calls.at(-1)
      expect(productDelivery.rawBody.toString("utf8")).toBe(callback?.rawBody)
      expect(productDelivery.headers["x-webhook-id"]).toBe(callback?.headers["x-webhook-id"])
      expect(jsonOf(productDelivery).product.product_id).toBe(design.body.product_id)
      const delivered = jsonOf(orderDelivery).order
      expect(delivered.external_id).toBe("1001")
      expect(delivered.products.map((p: { product_id: number }) => p.product_id)).toEqual([design.body.product_id])
    } finally {
      await integrator.close()
    }
  })

  it("retries a failing receiver with the same x-webhook-id until it accepts, recording every attempt", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const sub = await subscribe(seed.key, "order:created", "/flaky")
    const before = at("/flaky").length
    await enqueue(seed.storeId, "order:created", sampleEventPayload("order:created"))
    await receiver.waitFor(() => at("/flaky").length >= before + 3)
    const attempts = at("/flaky").slice(before)
    expect(attempts).toHaveLength(3)
    const ids = new Set(attempts.map((a) => a.headers["x-webhook-id"]))
    expect(ids.size).toBe(1)
    for (const a of attempts) {
      expect(verifyWebhook({ rawBody: a.rawBody, headers: a.headers, secret: sub.secret })).toEqual({ ok: true })
      expect(a.rawBody.equals(attempts[0]?.rawBody ?? Buffer.alloc(0))).toBe(true)
    }
    await waitForStatus(seed.key, sub.id, "delivered")
    const log = await app.call("GET", `/api/v3/webhook-subscriptions/${sub.id}/deliveries`, { key: seed.key })
    const [delivery] = log.body.data
    expect(delivery.attempt_count).toBe(3)
    expect(delivery.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([500, 500, 200])
    expect(delivery.attempts.map((a: { error: string | null }) => a.error)).toEqual(["HTTP 500", "HTTP 500", null])
    expect(delivery.attempts.map((a: { attempt_number: number }) => a.attempt_number)).toEqual([1, 2, 3])

    // A redelivery sends the same event again under the same x-webhook-id.
    const redelivered = await app.call("POST", `/api/v3/webhook-subscriptions/${sub.id}/deliveries/${delivery.id}/redeliver`, { key: seed.key })
    expect(redelivered.status).toBe(202)
    expect(redelivered.body.data.id).toBe(delivery.id)
    await receiver.waitFor(() => at("/flaky").length >= before + 4)
    expect(at("/flaky")[before + 3]?.headers["x-webhook-id"]).toBe(delivery.webhook_id)
    await waitForStatus(seed.key, sub.id, "delivered", 4)
    const other = await app.seedStore({ scopes: SCOPES })
    expect((await app.call("POST", `/api/v3/webhook-subscriptions/${sub.id}/deliveries/${delivery.id}/redeliver`, { key: other.key })).status).toBe(404)
    expect((await app.call("POST", `/api/v3/webhook-subscriptions/${sub.id}/deliveries/999999/redeliver`, { key: seed.key })).status).toBe(404)
  })

  it("records network failures and keeps the delivery pending for a retry", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    // Port 1 on loopback: nothing listens, the connection is refused.
    const res = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:created", url: "http://127.0.0.1:1/" } })
    const id = res.body.data.id
    await enqueue(seed.storeId, "order:created", sampleEventPayload("order:created"))
    const deadline = Date.now() + 20_000
    for (;;) {
      const log = await app.call("GET", `/api/v3/webhook-subscriptions/${id}/deliveries`, { key: seed.key })
      const [delivery] = log.body.data
      if (delivery !== undefined && delivery.attempts.length >= 2) {
        expect(delivery.status).toBe("pending")
        expect(delivery.attempts[0]).toMatchObject({ response_status: null, error: "ECONNREFUSED" })
        expect(delivery.last_error).toBe("ECONNREFUSED")
        break
      }
      if (Date.now() > deadline) throw new Error("no recorded network failure")
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // Deleting the subscription cancels what is still pending.
    expect((await app.call("DELETE", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })).status).toBe(200)
    const rows = await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ status: string }>`SELECT status FROM webhook_deliveries WHERE subscription_id = ${id}`
    }))
    expect(rows.map((row) => row.status)).toEqual(["cancelled"])
  })

  it("marks a delivery failed once it has had 8 attempts over 24 hours", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const res = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:created", url: "http://127.0.0.1:1/" } })
    const id = res.body.data.id
    await enqueue(seed.storeId, "order:created", sampleEventPayload("order:created"))
    await waitForAttempts(seed.key, id, 1)
    // Age the delivery: its 8th attempt is due and its first one was 25 hours ago.
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        UPDATE webhook_deliveries SET attempt_count = 7, first_attempt_at = now() - interval '25 hours',
          next_attempt_at = now(), locked_until = NULL
        WHERE subscription_id = ${id}`
    }))
    const failed = await waitForStatus(seed.key, id, "failed")
    expect(failed.attempt_count).toBeGreaterThanOrEqual(8)
    expect(failed.next_attempt_at).toBeNull()
    expect(failed.last_error).toBe("ECONNREFUSED")
    const filtered = (status: string) =>
      app.call("GET", `/api/v3/webhook-subscriptions/${id}/deliveries?status=${status}`, { key: seed.key })
    expect((await filtered("failed")).body.data.map((d: { id: number }) => d.id)).toEqual([failed.id])
    expect((await filtered("pending")).body.data).toEqual([])
    expect((await filtered("lost")).status).toBe(422)
    // A failed delivery stays failed: even made due again, the worker passes it by. A later event's
    // first attempt, claimed in the same pass or a later one (due rows are claimed oldest first),
    // marks the moment the worker has looked.
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 minute' WHERE id = ${failed.id}`
    }))
    await enqueue(seed.storeId, "order:created", sampleEventPayload("order:created"))
    const log = async () => (await app.call("GET", `/api/v3/webhook-subscriptions/${id}/deliveries`, { key: seed.key })).body.data
    await waitForAttempts(seed.key, id, 1)
    const [newer, later] = await log()
    expect(newer.id).not.toBe(failed.id)
    expect(later.id).toBe(failed.id)
    expect(later.status).toBe("failed")
    expect(later.attempts.length).toBe(failed.attempts.length)
  })

  it("queues deliveries only for subscriptions existing when the event commits", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const none = await enqueue(seed.storeId, "product:created", sampleEventPayload("product:created"))
    expect(none.deliveries).toBe(0)
    await subscribe(seed.key, "product:created", "/late")
    await subscribe(seed.key, "product:created", "/late2")
    const two = await enqueue(seed.storeId, "product:created", sampleEventPayload("product:created"))
    expect(two.deliveries).toBe(2)
    await receiver.waitFor(() => at("/late").length === 1 && at("/late2").length === 1)
    // One event, one id: both subscriptions see the same x-webhook-id.
    expect(at("/late")[0]?.headers["x-webhook-id"]).toBe(`evt_${two.id}`)
    expect(at("/late2")[0]?.headers["x-webhook-id"]).toBe(`evt_${two.id}`)
  })

  const waitForAttempts = async (key: string, subscriptionId: number, count: number) => {
    const deadline = Date.now() + 20_000
    for (;;) {
      const [delivery] = (await app.call("GET", `/api/v3/webhook-subscriptions/${subscriptionId}/deliveries`, { key })).body.data
      if (delivery !== undefined && delivery.attempts.length >= count) return delivery
      if (Date.now() > deadline) throw new Error(`fewer than ${count} attempts: ${JSON.stringify(delivery)}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  const waitForStatus = async (key: string, subscriptionId: number, status: string, attempts?: number) => {
    const deadline = Date.now() + 20_000
    for (;;) {
      const log = await app.call("GET", `/api/v3/webhook-subscriptions/${subscriptionId}/deliveries`, { key })
      const [delivery] = log.body.data
      if (delivery?.status === status && (attempts === undefined || delivery.attempt_count === attempts)) return delivery
      if (Date.now() > deadline) throw new Error(`delivery never became ${status}: ${JSON.stringify(delivery)}`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
})
