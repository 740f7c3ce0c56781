import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyWebhook } from "../../src/domain/webhooks/signature.js"
import { OutboundHttp, type OutboundRequest, type OutboundResponse } from "../../src/services/outbound/outbound-http.js"
import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, type TestApp, type TestDatabase } from "@signcraft/test-kit"

// No receiver exists at these names: any request that bypassed the injected layer would fail.
const CALLBACK_URL = "http://integrator.invalid/create-product"
const SUBSCRIBER_URL = "http://subscriber.invalid/hook"

describe.each(databaseVariants())("an app built with another OutboundHttp layer ($name database)", (variant) => {
  let db: TestDatabase
  let app: TestApp
  const sent: Array<{ readonly url: string; readonly request: OutboundRequest }> = []
  const attempts: Array<string> = []
  let callbackAnswer: OutboundResponse = { status: 200, body: JSON.stringify({ external_id: "stub_42" }), bodyRead: "whole" }
  const stub = Layer.succeed(OutboundHttp, OutboundHttp.of({
    post: (url, request) =>
      Effect.sync(() => {
        sent.push({ url, request })
        return url === CALLBACK_URL ? callbackAnswer : { status: 204, body: "cut", bodyRead: "capped" as const }
      })
  }))

  const logLines: Array<Readonly<Record<string, string | number>>> = []

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS, {
      outboundHttp: stub,
      log: (line) => logLines.push(line),
      deliveryWorker: {
        pollIntervalMs: 20,
        onAttempt: (_claim, result) => attempts.push(result.next._tag)
      }
    })
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("sends the integration callback and the webhook deliveries through it", async () => {
    const store = await app.seedStore({ scopes: ["webhooks:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const subscribed = await app.call("POST", "/api/v3/webhook-subscriptions", {
      key: store.key,
      body: { topic: "product:created", url: SUBSCRIBER_URL }
    })
    expect(subscribed.status).toBe(201)
    const integration = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: CALLBACK_URL })
    expect(integration.status).toBe(201)

    const design = { integration_id: integration.body.id, title: "OPEN", price: 24900, currency: "USD" }
    const created = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design })
    expect(created.status).toBe(201)
    expect(created.body.external_id).toBe("stub_42")

    const callback = sent.find((s) => s.url === CALLBACK_URL)
    expect(callback?.request.headers["x-webhook-topic"]).toBe("product:created")
    const signed = { rawBody: callback?.request.body ?? "", headers: callback?.request.headers ?? {}, secret: integration.body.signing_secret }
    expect(verifyWebhook(signed).ok).toBe(true)

    const deadline = Date.now() + 5000
    while (attempts.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    const delivery = sent.find((s) => s.url === SUBSCRIBER_URL)
    expect(delivery?.request.body).toBe(callback?.request.body)
    expect(delivery?.request.headers["x-webhook-id"]).toBe(callback?.request.headers["x-webhook-id"])
    // Only the status counts for a delivery: a 2xx whose body was cut at the cap delivered it.
    expect(attempts).toEqual(["Delivered"])
  })

  it("fails the callback on an answer cut at the cap or broken off, even with an external_id", async () => {
    const store = await app.seedStore({ scopes: ["webhooks:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: CALLBACK_URL })
    const design = { integration_id: integration.body.id, title: "OPEN", price: 24900, currency: "USD" }
    for (const [bodyRead, reason] of [["capped", "response_too_large"], ["broken", "network"]] as const) {
      callbackAnswer = { status: 200, body: JSON.stringify({ external_id: "stub_43" }), bodyRead }
      const res = await app.call("POST", `/storefront/v1/customisers/${customiserId}/designs`, { body: design })
      expect(res.status, bodyRead).toBe(502)
      expect(res.body.code).toBe("integration_callback_failed")
      // The reason is the Store's, kept in the log under the request id; the shopper is not told.
      expect(res.body.detail).not.toContain(reason)
      const logged = logLines.filter((line) => line.level === "error" && line.request_id === res.headers.get("x-request-id"))
      expect(String(logged[0]?.message)).toContain(reason)
    }
  })
})
