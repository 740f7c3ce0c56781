import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DeprecatedUsage } from "../../src/services/requests/deprecated-usage.js"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"

const V2_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const V3_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const ALL_WEBHOOK_SCOPES = ["webhooks:read", "webhooks:write", "quotes:read"]

describe.each(databaseVariants())("webhook subscriptions, catalogue and quotes ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000 })
    // Build (and migrate) within the hook's time budget, not the first test's.
    expect((await app.call("GET", "/healthz")).status).toBe(200)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const createCustomiser = async (storeId: number) => {
    const res = await app.operator("POST", `/stores/${storeId}/customisers`, {
      name: "Neon quote form",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    expect(res.status).toBe(201)
    return res.body.id as number
  }

  describe("v3", () => {
    it("allows at most 16 live subscriptions per Store, exactly, even when created at once", async () => {
      const seed = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const create = (n: number) =>
        app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:created", url: `http://127.0.0.1:9/hook/${n}` } })
      const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => create(n)))
      expect(answers.filter((a) => a.status === 201)).toHaveLength(16)
      const refused = answers.filter((a) => a.status !== 201)
      expect(refused.map((a) => [a.status, a.body.errors?.[0]?.code])).toEqual(Array(4).fill([422, "limit_exceeded"]))
      const victim = answers.find((a) => a.status === 201)?.body.data.id
      expect((await app.call("DELETE", `/api/v3/webhook-subscriptions/${victim}`, { key: seed.key })).status).toBe(200)
      expect((await create(99)).status).toBe(201)
      expect((await create(100)).status).toBe(422)
    })

    it("creates a subscription and shows its secret only once", async () => {
      const seed = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const created = await app.call("POST", "/api/v3/webhook-subscriptions", {
        key: seed.key,
        body: { topic: "order:created", url: "http://127.0.0.1:9/hook" }
      })
      expect(created.status).toBe(201)
      expect(created.body.data).toMatchObject({
        object: "webhook_subscription",
        topic: "order:created",
        url: "http://127.0.0.1:9/hook",
        status: "active"
      })
      expect(created.body.data.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/)
      expect(created.body.data.created_at).toMatch(V3_TIMESTAMP)
      expect(created.body.meta.request_id).toMatch(/^req_/)

      const id = created.body.data.id as number
      const read = await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })
      expect(read.status).toBe(200)
      expect(read.body.data.id).toBe(id)
      expect(read.body.data).not.toHaveProperty("secret")
      const list = await app.call("GET", "/api/v3/webhook-subscriptions", { key: seed.key })
      expect(list.body.data.map((s: { id: number }) => s.id)).toEqual([id])
      for (const item of list.body.data) expect(item).not.toHaveProperty("secret")
      expect(JSON.stringify(list.body)).not.toContain(created.body.data.secret)
    })

    it("pages the collection with limit and cursor", async () => {
      const seed = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const ids: Array<number> = []
      for (const topic of ["product:created", "order:created", "form:submitted"]) {
        const res = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic, url: "http://127.0.0.1:9/h" } })
        ids.push(res.body.data.id)
      }
      const first = await app.call("GET", "/api/v3/webhook-subscriptions?limit=2", { key: seed.key })
      expect(first.body.data.map((s: { id: number }) => s.id)).toEqual(ids.slice(0, 2))
      expect(first.body.pagination.has_more).toBe(true)
      const next = new URL(first.body.links.next)
      const second = await app.call("GET", `${next.pathname}${next.search}`, { key: seed.key })
      expect(second.body.data.map((s: { id: number }) => s.id)).toEqual(ids.slice(2))
      expect(second.body.pagination.has_more).toBe(false)
      expect((await app.call("GET", "/api/v3/webhook-subscriptions?limit=0", { key: seed.key })).status).toBe(422)
    })

    it("merge-patches topic and url, keeping the rest", async () => {
      const seed = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const created = await app.call("POST", "/api/v3/webhook-subscriptions", {
        key: seed.key,
        body: { topic: "order:created", url: "http://127.0.0.1:9/a" }
      })
      const id = created.body.data.id
      const urlOnly = await app.call("PATCH", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key, body: { url: "http://127.0.0.1:9/b" } })
      expect(urlOnly.status).toBe(200)
      expect(urlOnly.body.data).toMatchObject({ topic: "order:created", url: "http://127.0.0.1:9/b" })
      expect(urlOnly.body.data).not.toHaveProperty("secret")
      const topicOnly = await app.call("PATCH", `/api/v3/webhook-subscriptions/${id}`, {
        key: seed.key,
        body: { topic: "form:submitted" },
        headers: { "content-type": "application/merge-patch+json" }
      })
      expect(topicOnly.status).toBe(200)
      expect(topicOnly.body.data).toMatchObject({ topic: "form:submitted", url: "http://127.0.0.1:9/b" })
      const bad = await app.call("PATCH", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key, body: { topic: "order:paid" } })
      expect(bad.status).toBe(422)
      expect(bad.body.errors[0].pointer).toBe("/topic")
      const v2 = await app.call("GET", `/api/v2/webhooks/${id}`, { key: seed.key })
      expect(v2.body.webhook.secret).toBe(created.body.data.secret)
    })

    it("validates topic and url on create", async () => {
      const seed = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const topic = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:paid", url: "http://127.0.0.1:9/" } })
      expect(topic.status).toBe(422)
      expect(topic.body.code).toBe("validation_failed")
      expect(topic.body.errors[0].pointer).toBe("/topic")
      for (const url of ["not a url", "ftp://example.com/x", "https://user:pw@example.com/x"]) {
        const res = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:created", url } })
        expect(res.status).toBe(422)
        expect(res.body.errors[0]).toMatchObject({ pointer: "/url", code: "invalid_url" })
      }
    })

    it("deletes a subscription: gone from v3 and v2", async () => {
      const seed = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const created = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:created", url: "http://127.0.0.1:9/" } })
      const id = created.body.data.id
      const deleted = await app.call("DELETE", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })
      expect(deleted.status).toBe(200)
      expect(deleted.body.data).toEqual({ object: "webhook_subscription", id, deleted: true })
      expect((await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })).status).toBe(404)
      expect((await app.call("DELETE", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })).status).toBe(404)
      expect((await app.call("GET", "/api/v2/webhooks", { key: seed.key })).body.webhooks).toEqual([])
    })

    it("replays a create with the same Idempotency-Key and refuses another body", async () => {
      const seed = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const body = { topic: "order:created", url: "http://127.0.0.1:9/idem" }
      const headers = { "idempotency-key": "sub-create-1" }
      const first = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body, headers })
      const again = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body, headers })
      expect(first.status).toBe(201)
      expect(again.status).toBe(201)
      expect(again.headers.get("idempotency-replay")).toBe("true")
      expect(again.body.data.id).toBe(first.body.data.id)
      const other = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { ...body, url: "http://127.0.0.1:9/x" }, headers })
      expect(other.status).toBe(409)
      expect(other.body.code).toBe("idempotency_key_conflict")
      expect((await app.call("GET", "/api/v3/webhook-subscriptions", { key: seed.key })).body.data).toHaveLength(1)
    })

    it("needs webhooks:read to read and webhooks:write to write", async () => {
      const reader = await app.seedStore({ scopes: ["webhooks:read"] })
      const denied = await app.call("POST", "/api/v3/webhook-subscriptions", { key: reader.key, body: { topic: "order:created", url: "http://127.0.0.1:9/" } })
      expect(denied.status).toBe(403)
      expect(denied.body.required_scopes).toEqual(["webhooks:write"])
      expect((await app.call("GET", "/api/v3/webhook-subscriptions", { key: reader.key })).status).toBe(200)
      const writer = await app.seedStore({ scopes: ["webhooks:write"] })
      expect((await app.call("GET", "/api/v3/webhook-event-types", { key: writer.key })).status).toBe(403)
      expect((await app.call("GET", "/api/v3/quotes", { key: writer.key })).body.required_scopes).toEqual(["quotes:read"])
    })

    it("confines subscriptions to their Store in both generations", async () => {
      const a = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const b = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const created = await app.call("POST", "/api/v3/webhook-subscriptions", { key: a.key, body: { topic: "order:created", url: "http://127.0.0.1:9/" } })
      const id = created.body.data.id
      expect((await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key: b.key })).status).toBe(404)
      expect((await app.call("PATCH", `/api/v3/webhook-subscriptions/${id}`, { key: b.key, body: { url: "http://127.0.0.1:9/x" } })).status).toBe(404)
      expect((await app.call("DELETE", `/api/v3/webhook-subscriptions/${id}`, { key: b.key })).status).toBe(404)
      expect((await app.call("GET", `/api/v3/webhook-subscriptions/${id}/deliveries`, { key: b.key })).status).toBe(404)
      expect((await app.call("GET", `/api/v2/webhooks/${id}`, { key: b.key })).status).toBe(404)
      expect((await app.call("DELETE", `/api/v2/webhooks/${id}`, { key: b.key })).status).toBe(404)
      expect((await app.call("GET", "/api/v3/webhook-subscriptions", { key: b.key })).body.data).toEqual([])
      expect((await app.call("GET", "/api/v2/webhooks", { key: b.key })).body.webhooks).toEqual([])
      expect((await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key: a.key })).status).toBe(200)
    })
  })

  describe("v2 (previous generation)", () => {
    it("creates, reads, replaces and deletes in the v2 shape, over the same rows as v3", async () => {
      const seed = await app.seedStore("wildcard")
      const created = await app.call("POST", "/api/v2/webhooks", {
        key: seed.key,
        body: { topic: "product:created", url: "http://127.0.0.1:9/v2", meta: { source: "zapier" } }
      })
      expect(created.status).toBe(200)
      const webhook = created.body.webhook
      expect(Object.keys(webhook).sort()).toEqual(["created_at", "meta", "secret", "status", "topic", "updated_at", "url", "webhook_id"])
      expect(webhook).toMatchObject({ topic: "product:created", url: "http://127.0.0.1:9/v2", status: "active", meta: { source: "zapier" } })
      expect(webhook.secret).toMatch(/^whsec_/)
      expect(webhook.created_at).toMatch(V2_TIMESTAMP)
      expect(webhook.updated_at).toMatch(V2_TIMESTAMP)
      expect(created.headers.get("deprecation")).toBe("@1784678400")
      expect(created.headers.get("sunset")).toBe("Fri, 22 Jan 2027 00:00:00 GMT")
      expect(created.headers.get("link")).toContain("rel=deprecation")

      const id = webhook.webhook_id
      const read = await app.call("GET", `/api/v2/webhooks/${id}`, { key: seed.key })
      expect(read.body.webhook).toEqual(webhook)
      const v3 = await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })
      expect(v3.body.data).toMatchObject({ id, topic: "product:created", url: "http://127.0.0.1:9/v2" })

      const replaced = await app.call("PUT", `/api/v2/webhooks/${id}`, { key: seed.key, body: { topic: "order:created", url: "http://127.0.0.1:9/v2b" } })
      expect(replaced.status).toBe(200)
      expect(replaced.body.webhook).toMatchObject({ webhook_id: id, topic: "order:created", url: "http://127.0.0.1:9/v2b", secret: webhook.secret, meta: { source: null } })
      const list = await app.call("GET", "/api/v2/webhooks", { key: seed.key })
      expect(list.body.webhooks.map((w: { webhook_id: number }) => w.webhook_id)).toEqual([id])

      const deleted = await app.call("DELETE", `/api/v2/webhooks/${id}`, { key: seed.key })
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({ success: true })
      expect(deleted.headers.get("deprecation")).toBe("@1784678400")
      expect((await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })).status).toBe(404)

      // Every call of a deprecated operation is counted per key, under the operation's documented name.
      const usage = await app.run(Effect.gen(function*() {
        return yield* (yield* DeprecatedUsage).forStore(seed.storeId)
      }))
      const counts = Object.fromEntries(usage.map((u) => [u.operation, u.count]))
      expect(counts).toEqual({
        "POST /api/v2/webhooks": 1,
        "GET /api/v2/webhooks/{webhook_id}": 1,
        "PUT /api/v2/webhooks/{webhook_id}": 1,
        "GET /api/v2/webhooks": 1,
        "DELETE /api/v2/webhooks/{webhook_id}": 1
      })
    })

    it("shows a v3-created subscription with its secret and meta.source", async () => {
      const seed = await app.seedStore({ scopes: ALL_WEBHOOK_SCOPES })
      const created = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:created", url: "http://127.0.0.1:9/" } })
      const v2 = await app.call("GET", `/api/v2/webhooks/${created.body.data.id}`, { key: seed.key })
      expect(v2.body.webhook).toMatchObject({ webhook_id: created.body.data.id, secret: created.body.data.secret, meta: { source: null } })
    })

    it("answers errors in the v2 format, with deprecation headers", async () => {
      const seed = await app.seedStore("wildcard")
      const invalid = await app.call("POST", "/api/v2/webhooks", { key: seed.key, body: { topic: "nope", url: "x" } })
      expect(invalid.status).toBe(422)
      expect(invalid.body).toHaveProperty("message")
      expect(Object.keys(invalid.body.errors)).toContain("topic")
      expect(invalid.headers.get("deprecation")).toBe("@1784678400")
      const badUrl = await app.call("POST", "/api/v2/webhooks", { key: seed.key, body: { topic: "order:created", url: "not a url" } })
      expect(badUrl.status).toBe(422)
      expect(Object.keys(badUrl.body.errors)).toEqual(["url"])
      const missing = await app.call("GET", "/api/v2/webhooks/999999", { key: seed.key })
      expect(missing.status).toBe(404)
      expect(missing.body).toHaveProperty("message")
      expect(missing.headers.get("sunset")).toBe("Fri, 22 Jan 2027 00:00:00 GMT")
      const unauthenticated = await app.call("GET", "/api/v2/webhooks")
      expect(unauthenticated.status).toBe(401)
      expect(unauthenticated.body).toHaveProperty("message")
    })
  })

  describe("event-type catalogue and examples", () => {
    it("lists every topic with its deprecation flag, description and example", async () => {
      const seed = await app.seedStore({ scopes: ["webhooks:read"] })
      const res = await app.call("GET", "/api/v3/webhook-event-types", { key: seed.key })
      expect(res.status).toBe(200)
      const byTopic = Object.fromEntries(res.body.data.map((t: { topic: string }) => [t.topic, t]))
      expect(Object.keys(byTopic).sort()).toEqual(["form:submitted", "order:created", "product:created", "webhook:test"])
      expect(byTopic["webhook:test"].example.webhook_test).toHaveProperty("subscription_id")
      // Every entry describes both signature schemes.
      for (const entry of res.body.data) {
        expect(entry.signature_schemes.map((s: { scheme: string }) => s.scheme)).toEqual(["signcraft", "standard"])
      }
      expect(byTopic["order:created"].signature_schemes[1]).toMatchObject({
        headers: expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature"]),
        signed_content: "{webhook-id}.{webhook-timestamp}.{raw body}"
      })
      expect(byTopic["form:submitted"].deprecated).toBe(true)
      expect(byTopic["form:submitted"].deprecated_on).toBe("2026-08-24")
      expect(byTopic["form:submitted"].description.startsWith("Deprecated.")).toBe(true)
      for (const topic of ["product:created", "order:created"]) {
        expect(byTopic[topic].deprecated).toBe(false)
        expect(byTopic[topic].description.startsWith("Deprecated.")).toBe(false)
      }
      expect(byTopic["product:created"].example.product.product_id).toEqual(expect.any(Number))
      expect(byTopic["order:created"].example.order.products[0].uploads[0]).toHaveProperty("path")
      expect(byTopic["form:submitted"].example.form_submission.type).toBe("custom_form_submission")
      expect(res.body.pagination.has_more).toBe(false)
    })

    it("v2 examples give sample data, then the Store's latest real event", async () => {
      const seed = await app.seedStore("wildcard")
      const sample = await app.call("GET", "/api/v2/webhook-examples/form:submitted", { key: seed.key })
      expect(sample.status).toBe(200)
      expect(sample.body.form_submission.form.label).toBe("Neon sign quote")
      expect(sample.headers.get("deprecation")).toBe("@1784678400")
      const encoded = await app.call("GET", "/api/v2/webhook-examples/order%3Acreated", { key: seed.key })
      expect(encoded.body.order.order_id).toBe(5001)
      expect((await app.call("GET", "/api/v2/webhook-examples/order:paid", { key: seed.key })).status).toBe(404)

      const customiserId = await createCustomiser(seed.storeId)
      // A submission's event is recorded only for a Store with a subscriber to it.
      const hook = await app.call("POST", "/api/v2/webhooks", { key: seed.key, body: { topic: "form:submitted", url: "http://127.0.0.1:9/form" } })
      expect(hook.status).toBe(200)
      const submitted = await app.call("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, {
        body: { responses: [{ field_id: "email", name: "Email", input_type: "EMAIL", value: "real@example.com" }] }
      })
      expect(submitted.status).toBe(201)
      const real = await app.call("GET", "/api/v2/webhook-examples/form:submitted", { key: seed.key })
      expect(real.body.form_submission.responses[0].value).toBe("real@example.com")
      expect(real.body.form_submission.form.customiser_id).toBe(customiserId)
      const other = await app.seedStore("wildcard")
      const isolated = await app.call("GET", "/api/v2/webhook-examples/form:submitted", { key: other.key })
      expect(isolated.body.form_submission.responses[0].value).toBe("ada@example.com")
    })
  })

  describe("form submissions and quotes", () => {
    it("stores a submission as a quote with a stable id, numbered per Store", async () => {
      const seed = await app.seedStore({ scopes: ["quotes:read"] })
      const customiserId = await createCustomiser(seed.storeId)
      const responses = [
        { field_id: "email", name: "Email", input_type: "EMAIL", value: "shopper@example.com" },
        { field_id: 7, name: "Size", input_type: "TEXT", value: "2 m" }
      ]
      const first = await app.call("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, { body: { form_id: 3, responses } })
      expect(first.status).toBe(201)
      expect(first.body).toEqual({ quote_id: expect.any(Number) })
      const second = await app.call("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, { body: { responses } })
      const list = await app.call("GET", "/api/v3/quotes", { key: seed.key })
      expect(list.status).toBe(200)
      expect(list.body.data).toEqual([
        {
          object: "quote",
          id: first.body.quote_id,
          customiser_id: customiserId,
          form_id: 3,
          submission_number: 1,
          responses,
          created_at: expect.stringMatching(V3_TIMESTAMP)
        },
        // Submitted without a form: the built-in form, which is no stored form of its own.
        expect.objectContaining({ id: second.body.quote_id, submission_number: 2, form_id: null })
      ])
      const again = await app.call("GET", "/api/v3/quotes?limit=1", { key: seed.key })
      expect(again.body.data[0].id).toBe(first.body.quote_id)
      expect(again.body.pagination.has_more).toBe(true)
      const other = await app.seedStore({ scopes: ["quotes:read"] })
      expect((await app.call("GET", "/api/v3/quotes", { key: other.key })).body.data).toEqual([])
    })

    it("refuses unknown customisers and invalid bodies", async () => {
      const seed = await app.seedStore({ scopes: ["quotes:read"] })
      const customiserId = await createCustomiser(seed.storeId)
      const unknown = await app.call("POST", "/storefront/v1/customisers/99999999/form-submissions", {
        body: { responses: [{ field_id: "a", name: "A", input_type: "TEXT", value: "x" }] }
      })
      expect(unknown.status).toBe(404)
      expect(unknown.headers.get("content-type")).toContain("application/problem+json")
      const empty = await app.call("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, { body: { responses: [] } })
      expect(empty.status).toBe(422)
      const wrong = await app.call("POST", `/storefront/v1/customisers/${customiserId}/form-submissions`, { body: { responses: [{ name: "A" }] } })
      expect(wrong.status).toBe(422)
      expect((await app.call("GET", "/api/v3/quotes", { key: seed.key })).body.data).toEqual([])
    })
  })

  it("names the webhook routes in the OpenAPI document", async () => {
    const spec = JSON.parse(await app.handlerText("/api/v3/openapi.json"))
    for (const path of [
      "/api/v3/webhook-subscriptions",
      "/api/v3/webhook-subscriptions/{webhook_id}",
      "/api/v3/webhook-subscriptions/{webhook_id}/deliveries",
      "/api/v3/webhook-subscriptions/{webhook_id}/deliveries/{delivery_id}/redeliver",
      "/api/v3/webhook-event-types",
      "/api/v3/quotes"
    ]) expect(spec.paths).toHaveProperty([path])
  })
})
