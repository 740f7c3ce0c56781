import { Effect } from "effect"
import { Webhook as StandardWebhook } from "standardwebhooks"
import { Webhook as SvixWebhook } from "svix"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyStandardWebhook } from "../../src/domain/webhooks/standard-signature.js"
import { sampleEventPayload } from "../../src/domain/webhooks/topics.js"
import { Outbox } from "../../src/services/webhooks/outbox.js"
import { pruneRetained } from "../../src/services/operations/retention.js"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { attemptLog } from "@signcraft/test-kit/attempts"
import { jsonOf, type ReceivedDelivery, type Receiver, startReceiver } from "@signcraft/test-kit/receiver"

const SCOPES = ["webhooks:read", "webhooks:write"]

describe.each(databaseVariants())("events API, resend, test events, 410 and Standard Webhooks ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  let receiver: Receiver
  const attempts = attemptLog()
  const answer = (request: ReceivedDelivery) =>
    request.path.startsWith("/gone") ? 410 : request.path.startsWith("/down") ? 500 : 200

  beforeAll(async () => {
    db = await variant.create()
    receiver = await startReceiver(answer)
    app = startApp(
      db.config,
      { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000, webhookRetryBaseMs: 60_000 },
      { deliveryWorker: { pollIntervalMs: 20, onAttempt: attempts.onAttempt } }
    )
    expect((await app.call("GET", "/healthz")).status).toBe(200)
  })
  afterAll(async () => {
    await app.dispose()
    await receiver.close()
    await db.cleanup()
  })

  const subscribe = async (key: string, path: string, extra: Record<string, unknown> = {}, topic = "order:created") => {
    const res = await app.call("POST", "/api/v3/webhook-subscriptions", { key, body: { topic, url: receiver.url(path), ...extra } })
    expect(res.status).toBe(201)
    return { id: res.body.data.id as number, secret: res.body.data.secret as string, body: res.body.data }
  }
  const enqueue = (storeId: number, topic: "order:created" | "product:created", n: number) =>
    app.run(Effect.gen(function*() {
      return yield* (yield* Outbox).enqueue(storeId, topic, { ...sampleEventPayload(topic), n })
    }))
  const at = (path: string) => receiver.received.filter((r) => r.path === path)
  const attemptsTo = (subscriptionId: number) => attempts.recorded.filter((a) => a.claim.subscriptionId === subscriptionId)

  describe("GET /api/v3/events", () => {
    it("lists the Store's events newest first, paged, each with the x-webhook-id of its deliveries and their body", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const other = await app.seedStore({ scopes: SCOPES })
      const hook = await subscribe(seed.key, "/events/list")
      const made = []
      for (let n = 1; n <= 5; n++) made.push(await enqueue(seed.storeId, "order:created", n))
      await enqueue(other.storeId, "order:created", 99)
      await attempts.waitFor(() => attemptsTo(hook.id).length === 5)

      const first = await app.call("GET", "/api/v3/events?limit=2", { key: seed.key })
      expect(first.status).toBe(200)
      expect(first.body.data.map((e: { id: string }) => e.id)).toEqual([`evt_${made[4]?.id}`, `evt_${made[3]?.id}`])
      expect(first.body.data[0]).toMatchObject({ object: "event", type: "order:created", delivery_status: "delivered" })
      expect(first.body.data[0].data).toEqual({ ...sampleEventPayload("order:created"), n: 5 })
      expect(first.body.data[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      const delivered = at("/events/list").find((r) => jsonOf(r).n === 5)
      expect(delivered?.headers["x-webhook-id"]).toBe(first.body.data[0].id)

      const ids: Array<string> = []
      for (let url: string | undefined = "/api/v3/events?limit=2"; url !== undefined;) {
        const page = await app.call("GET", url, { key: seed.key })
        ids.push(...page.body.data.map((e: { id: string }) => e.id))
        url = page.body.links.next === undefined ? undefined : new URL(page.body.links.next).pathname + new URL(page.body.links.next).search
      }
      expect(ids).toEqual([...made].reverse().map((e) => `evt_${e.id}`))

      const one = await app.call("GET", `/api/v3/events/evt_${made[0]?.id}`, { key: seed.key })
      expect(one.status).toBe(200)
      expect(one.body.data).toMatchObject({ id: `evt_${made[0]?.id}`, type: "order:created", data: { n: 1 } })
      // Another Store's event, an id of another shape, and an unknown one all answer 404.
      const foreign = (await app.call("GET", "/api/v3/events?limit=1", { key: other.key })).body.data[0].id
      for (const id of [foreign, `${made[0]?.id}`, "evt_0", "evt_99999999999"]) {
        expect((await app.call("GET", `/api/v3/events/${id}`, { key: seed.key })).status).toBe(404)
      }
    })

    it("filters by type, creation time and delivery status; a cursor of another collection or filter is refused", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const ok = await subscribe(seed.key, "/events/ok")
      const failing = await subscribe(seed.key, "/down/events", {}, "product:created")
      const order = await enqueue(seed.storeId, "order:created", 1)
      await attempts.waitFor(() => attemptsTo(ok.id).length === 1)
      const product = await enqueue(seed.storeId, "product:created", 2)
      await attempts.waitFor(() => attemptsTo(failing.id).length >= 1)
      const all = (await app.call("GET", "/api/v3/events", { key: seed.key })).body.data
      const createdOf = (id: number): string => all.find((e: { id: string }) => e.id === `evt_${id}`).created_at
      // created_at reads to the millisecond while the database keeps microseconds: one ms past the
      // order's reading is after the order, and the product came a whole delivery later.
      const afterOrder = new Date(Date.parse(createdOf(order.id)) + 1).toISOString()

      const list = async (query: string) =>
        (await app.call("GET", `/api/v3/events?${query}`, { key: seed.key })).body.data.map((e: { id: string }) => e.id)
      expect(await list("type=product:created")).toEqual([`evt_${product.id}`])
      expect(await list("delivery_status=pending")).toEqual([`evt_${product.id}`])
      expect(await list("delivery_status=delivered")).toEqual([`evt_${order.id}`])
      expect(await list("delivery_status=failed")).toEqual([])
      expect(await list(`created_after=${encodeURIComponent(afterOrder)}`)).toEqual([`evt_${product.id}`])
      expect(await list(`created_before=${encodeURIComponent(createdOf(product.id))}`)).toEqual([`evt_${order.id}`])
      expect(await list(`created_before=${encodeURIComponent("2000-01-01T00:00:00Z")}`)).toEqual([])

      const bad = await app.call("GET", "/api/v3/events?created_after=yesterday", { key: seed.key })
      expect(bad.status).toBe(422)
      expect(bad.body.errors[0].parameter).toBe("created_after")
      expect((await app.call("GET", "/api/v3/events?type=order:paid", { key: seed.key })).status).toBe(422)

      const paged = await app.call("GET", "/api/v3/events?limit=1", { key: seed.key })
      const cursor = new URL(paged.body.links.next).searchParams.get("cursor") ?? ""
      const elsewhere = await app.call("GET", `/api/v3/webhook-subscriptions?cursor=${cursor}`, { key: seed.key })
      expect(elsewhere.status).toBe(422)
      expect(elsewhere.body.errors[0].code).toBe("invalid_cursor")
      const filtered = await app.call("GET", `/api/v3/events?type=order:created&cursor=${cursor}`, { key: seed.key })
      expect(filtered.status).toBe(422)
      const subscriptionsPage = await app.call("GET", "/api/v3/webhook-subscriptions?limit=1", { key: seed.key })
      const foreignCursor = new URL(subscriptionsPage.body.links.next).searchParams.get("cursor") ?? ""
      expect((await app.call("GET", `/api/v3/events?cursor=${foreignCursor}`, { key: seed.key })).status).toBe(422)
    })

    it("needs webhooks:read", async () => {
      const seed = await app.seedStore({ scopes: ["store:read"] })
      expect((await app.call("GET", "/api/v3/events", { key: seed.key })).status).toBe(403)
      expect((await app.call("GET", "/api/v3/events/evt_1", { key: seed.key })).status).toBe(403)
    })

    it("keeps events RETENTION_DAYS: the retention pass removes older ones from the list", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const event = await enqueue(seed.storeId, "order:created", 1)
      expect((await app.call("GET", `/api/v3/events/evt_${event.id}`, { key: seed.key })).status).toBe(200)
      // With no subscriber the event has no pending delivery; a zero-day retention takes it at once.
      await app.run(pruneRetained(0))
      expect((await app.call("GET", `/api/v3/events/evt_${event.id}`, { key: seed.key })).status).toBe(404)
    })
  })

  describe("resend and test events", () => {
    it("resends one event to one subscription with its x-webhook-id, trigger manual, even one sent before", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const hook = await subscribe(seed.key, "/resend")
      const event = await enqueue(seed.storeId, "order:created", 7)
      await attempts.waitFor(() => attemptsTo(hook.id).length === 1)
      const res = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/events/evt_${event.id}/resend`, { key: seed.key })
      expect(res.status).toBe(202)
      expect(res.body.data).toMatchObject({ object: "webhook_delivery", event_id: event.id, message_id: `evt_${event.id}`, trigger: "manual" })
      await attempts.waitFor(() => attemptsTo(hook.id).length === 2)
      expect(at("/resend").map((r) => r.headers["x-webhook-id"])).toEqual([`evt_${event.id}`, `evt_${event.id}`])
      expect(at("/resend")[1]?.rawBody.equals(at("/resend")[0]?.rawBody ?? Buffer.alloc(0))).toBe(true)
      const log = await app.call("GET", `/api/v3/webhook-subscriptions/${hook.id}/deliveries`, { key: seed.key })
      expect(log.body.data[0].attempts.map((a: { trigger: string }) => a.trigger)).toEqual(["scheduled", "manual"])

      // An event the subscription never had (another topic) gets a delivery of its own.
      const product = await enqueue(seed.storeId, "product:created", 8)
      const fresh = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/events/evt_${product.id}/resend`, { key: seed.key })
      expect(fresh.status).toBe(202)
      await attempts.waitFor(() => attemptsTo(hook.id).length === 3)
      expect(at("/resend")[2]?.headers["x-webhook-id"]).toBe(`evt_${product.id}`)

      const other = await app.seedStore({ scopes: SCOPES })
      const foreign = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/events/evt_${event.id}/resend`, { key: other.key })
      expect(foreign.status).toBe(404)
      const otherEvent = await enqueue(other.storeId, "order:created", 9)
      const notOurs = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/events/evt_${otherEvent.id}/resend`, { key: seed.key })
      expect(notOurs.status).toBe(404)
    })

    it("sends a webhook:test event to that subscription only, signed like any other, and reports its delivery", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const hook = await subscribe(seed.key, "/test/one")
      const sibling = await subscribe(seed.key, "/test/two")
      const res = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/test`, { key: seed.key })
      expect(res.status).toBe(202)
      expect(res.body.data).toMatchObject({ object: "webhook_delivery", subscription_id: hook.id, topic: "webhook:test", trigger: "manual" })
      await attempts.waitFor(() => attemptsTo(hook.id).length === 1)
      const [delivery] = at("/test/one")
      expect(delivery?.headers["x-webhook-topic"]).toBe("webhook:test")
      expect(delivery?.headers["x-webhook-id"]).toBe(res.body.data.message_id)
      expect(jsonOf(delivery as ReceivedDelivery)).toEqual({
        webhook_test: { subscription_id: hook.id, topic: "order:created", url: receiver.url("/test/one") }
      })
      const events = await app.call("GET", "/api/v3/events?type=webhook:test", { key: seed.key })
      expect(events.body.data.map((e: { id: string }) => e.id)).toEqual([res.body.data.message_id])
      // The other subscription has no delivery of it.
      const log = await app.call("GET", `/api/v3/webhook-subscriptions/${sibling.id}/deliveries`, { key: seed.key })
      expect(log.body.data).toEqual([])
      expect(at("/test/two")).toHaveLength(0)
    })
  })

  describe("receiver answers", () => {
    it("disables a subscription at once when its receiver answers 410, and PATCH status active re-enables it", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const hook = await subscribe(seed.key, "/gone")
      const event = await enqueue(seed.storeId, "order:created", 1)
      await attempts.waitFor(() => attemptsTo(hook.id).length === 1)
      expect(attemptsTo(hook.id)[0]?.result.next).toEqual({ _tag: "Disable", reason: "gone" })
      const read = await app.call("GET", `/api/v3/webhook-subscriptions/${hook.id}`, { key: seed.key })
      expect(read.body.data).toMatchObject({ status: "disabled", disabled_reason: "gone" })
      const log = await app.call("GET", `/api/v3/webhook-subscriptions/${hook.id}/deliveries`, { key: seed.key })
      expect(log.body.data[0]).toMatchObject({ event_id: event.id, status: "failed", next_attempt_at: null })
      expect(log.body.data[0].attempts[0]).toMatchObject({ response_status: 410, status: "failed", next_attempt_at: null })

      // Disabled: the next event is not sent to it; re-enabled at a live URL, recover sends both.
      const missed = await enqueue(seed.storeId, "order:created", 2)
      const patched = await app.call("PATCH", `/api/v3/webhook-subscriptions/${hook.id}`, {
        key: seed.key,
        body: { status: "active", url: receiver.url("/back") }
      })
      expect(patched.body.data).toMatchObject({ status: "active", disabled_reason: null })
      const recovered = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/recover`, {
        key: seed.key,
        body: { since: "2000-01-01T00:00:00Z" }
      })
      expect(recovered.body.data.recovered).toBe(2)
      await attempts.waitFor(() => attemptsTo(hook.id).length === 3)
      expect(at("/back").map((r) => r.headers["x-webhook-id"])).toEqual([`evt_${event.id}`, `evt_${missed.id}`])
    })
  })

  describe("signature_scheme: standard", () => {
    it("is verified unchanged by the standardwebhooks and svix libraries, and by verifyStandardWebhook", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const hook = await subscribe(seed.key, "/standard", { signature_scheme: "standard" })
      expect(hook.body.signature_scheme).toBe("standard")
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      expect(Buffer.from(hook.secret.slice(6), "base64")).toHaveLength(32)
      const event = await enqueue(seed.storeId, "order:created", 1)
      await attempts.waitFor(() => attemptsTo(hook.id).length === 1)
      const [delivery] = at("/standard")
      if (delivery === undefined) throw new Error("nothing delivered")
      const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]))
      expect(headers["webhook-id"]).toBe(`evt_${event.id}`)
      expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/)
      expect(headers["x-webhook-signature"]).toBeUndefined()
      const body = delivery.rawBody.toString("utf8")

      expect(new StandardWebhook(hook.secret).verify(body, headers)).toEqual({ ...sampleEventPayload("order:created"), n: 1 })
      expect(() => new SvixWebhook(hook.secret).verify(body, headers)).not.toThrow()
      expect(verifyStandardWebhook({ rawBody: delivery.rawBody, headers, secret: hook.secret })).toEqual({ ok: true })

      // A body whose whitespace changed fails everywhere.
      const reformatted = JSON.stringify(JSON.parse(body), null, 2)
      expect(() => new StandardWebhook(hook.secret).verify(reformatted, headers)).toThrow()
      expect(() => new SvixWebhook(hook.secret).verify(reformatted, headers)).toThrow()
      expect(verifyStandardWebhook({ rawBody: reformatted, headers, secret: hook.secret })).toEqual({ ok: false, reason: "signature_mismatch" })

      // The default scheme is unchanged for subscriptions that do not ask.
      const plain = await subscribe(seed.key, "/plain")
      expect(plain.body.signature_scheme).toBe("signcraft")
    })

    it("signs with both secrets, space-separated, after a rotation; either verifies with the libraries", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const hook = await subscribe(seed.key, "/standard/rotated", { signature_scheme: "standard" })
      const rotated = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/rotate-secret`, { key: seed.key })
      const next: string = rotated.body.data.secret
      expect(next).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      await enqueue(seed.storeId, "order:created", 1)
      await attempts.waitFor(() => attemptsTo(hook.id).length === 1)
      const [delivery] = at("/standard/rotated")
      if (delivery === undefined) throw new Error("nothing delivered")
      const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]))
      expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2)
      const body = delivery.rawBody.toString("utf8")
      for (const secret of [hook.secret, next]) {
        expect(() => new StandardWebhook(secret).verify(body, headers)).not.toThrow()
        expect(() => new SvixWebhook(secret).verify(body, headers)).not.toThrow()
      }
    })

    it("refuses an unknown scheme, and a scheme in a PATCH", async () => {
      const seed = await app.seedStore({ scopes: SCOPES })
      const res = await app.call("POST", "/api/v3/webhook-subscriptions", {
        key: seed.key,
        body: { topic: "order:created", url: receiver.url("/x"), signature_scheme: "hmac" }
      })
      expect(res.status).toBe(422)
      expect(res.body.errors[0].pointer).toBe("/signature_scheme")
      const hook = await subscribe(seed.key, "/y")
      const patch = await app.call("PATCH", `/api/v3/webhook-subscriptions/${hook.id}`, { key: seed.key, body: { signature_scheme: "standard" } })
      expect(patch.status).toBe(422)
    })
  })
})
