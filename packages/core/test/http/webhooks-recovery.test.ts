import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SigncraftClient } from "@signcraft/client"
import { verifyWebhook } from "../../src/domain/webhooks/signature.js"
import { escapeHtml } from "../../src/http/docs/pages.js"
import { RECOVERY_CLIENT, RECOVERY_CURL } from "../../src/http/docs/webhooks-page.js"
import { sampleEventPayload } from "../../src/domain/webhooks/topics.js"
import { Outbox } from "../../src/services/webhooks/outbox.js"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { attemptLog } from "@signcraft/test-kit/attempts"
import { jsonOf, type ReceivedDelivery, type Receiver, startReceiver } from "@signcraft/test-kit/receiver"

const SCOPES = ["webhooks:read", "webhooks:write"]

// An integrator's receiver is down for a while, answering 503 with a Retry-After of an hour; once
// it is back, one recover call brings it up to date.
describe.each(databaseVariants())("webhook recovery against a real receiver ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  let receiver: Receiver
  const attempts = attemptLog()
  const down = new Set<string>()
  const answer = (request: ReceivedDelivery) =>
    down.has(request.path) ? { status: 503, headers: { "retry-after": "3600" } } : request.path.startsWith("/gone") ? 410 : 200

  beforeAll(async () => {
    db = await variant.create()
    receiver = await startReceiver(answer)
    app = startApp(
      db.config,
      { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000, webhookRetryBaseMs: 20 },
      { deliveryWorker: { pollIntervalMs: 20, onAttempt: attempts.onAttempt } }
    )
    expect((await app.call("GET", "/healthz")).status).toBe(200)
  })
  afterAll(async () => {
    await app.dispose()
    await receiver.close()
    await db.cleanup()
  })

  const subscribe = async (key: string, path: string) => {
    const res = await app.call("POST", "/api/v3/webhook-subscriptions", { key, body: { topic: "order:created", url: receiver.url(path) } })
    expect(res.status).toBe(201)
    return { id: res.body.data.id as number, secret: res.body.data.secret as string }
  }
  const enqueue = (storeId: number, n: number) =>
    app.run(Effect.gen(function*() {
      return yield* (yield* Outbox).enqueue(storeId, "order:created", { ...sampleEventPayload("order:created"), n })
    }))
  const at = (path: string) => receiver.received.filter((r) => r.path === path)
  const attemptsTo = (subscriptionId: number) => attempts.recorded.filter((a) => a.claim.subscriptionId === subscriptionId)

  it("sends exactly the failed events again, each with its x-webhook-id, in creation order, and logs them as trigger: recovery", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const hook = await subscribe(seed.key, "/receiver")
    const since = new Date(Date.now() - 1000).toISOString()

    // Before the outage: delivered once, and never again.
    const before = await enqueue(seed.storeId, 0)
    await attempts.waitFor(() => attemptsTo(hook.id).length === 1)
    expect(attemptsTo(hook.id)[0]?.result.next._tag).toBe("Delivered")

    // The outage: three events fail with 503 and Retry-After: 3600, so their next attempts are an hour away.
    down.add("/receiver")
    const failed = [await enqueue(seed.storeId, 1), await enqueue(seed.storeId, 2), await enqueue(seed.storeId, 3)]
    await attempts.waitFor(() => attemptsTo(hook.id).length === 4)
    const log = await app.call("GET", `/api/v3/webhook-subscriptions/${hook.id}/deliveries`, { key: seed.key })
    const pending = log.body.data.filter((d: { event_id: number }) => failed.some((e) => e.id === d.event_id))
    expect(pending).toHaveLength(3)
    for (const delivery of pending) {
      expect(delivery.status).toBe("pending")
      const [attempt] = delivery.attempts
      expect(attempt).toMatchObject({ trigger: "scheduled", status: "pending", response_status: 503, response_body: JSON.stringify({ error: "nope" }) })
      const wait = Date.parse(attempt.next_attempt_at) - Date.parse(attempt.started_at)
      expect(wait).toBeGreaterThan(3_590_000)
      expect(wait).toBeLessThan(3_610_000)
    }
    const failedIds = at("/receiver").slice(1).map((r) => r.headers["x-webhook-id"])
    expect([...failedIds].sort()).toEqual(failed.map((e) => `evt_${e.id}`).sort())

    // Back up: one recover call.
    down.delete("/receiver")
    const received = at("/receiver").length
    const recovered = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/recover`, { key: seed.key, body: { since } })
    expect(recovered.status).toBe(202)
    expect(recovered.body.data).toEqual({ object: "webhook_recovery", recovered: 3 })
    await attempts.waitFor(() => attemptsTo(hook.id).length === 7)

    const replayed = at("/receiver").slice(received)
    expect(replayed.map((r) => r.headers["x-webhook-id"])).toEqual(failed.map((e) => `evt_${e.id}`))
    // One at a time: each went out only once the one before it had been answered and recorded.
    const recoveryAttempts = attemptsTo(hook.id).slice(4)
    for (let k = 1; k < replayed.length; k++) {
      expect(replayed[k]?.receivedAt).toBeGreaterThanOrEqual(recoveryAttempts[k - 1]?.recordedAt ?? Number.POSITIVE_INFINITY)
    }
    expect(replayed.map((r) => jsonOf(r).n)).toEqual([1, 2, 3])
    for (const delivery of replayed) {
      expect(verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers, secret: hook.secret })).toEqual({ ok: true })
    }
    // The event delivered before the outage reached the receiver once only.
    expect(at("/receiver").filter((r) => r.headers["x-webhook-id"] === `evt_${before.id}`)).toHaveLength(1)

    const after = await app.call("GET", `/api/v3/webhook-subscriptions/${hook.id}/deliveries`, { key: seed.key })
    for (const delivery of after.body.data) {
      expect(delivery.status).toBe("delivered")
      expect(delivery.next_attempt_at).toBeNull()
    }
    for (const delivery of after.body.data.filter((d: { event_id: number }) => failed.some((e) => e.id === d.event_id))) {
      expect(delivery.trigger).toBe("scheduled")
      expect(delivery.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(["scheduled", "recovery"])
      expect(delivery.attempts[1]).toMatchObject({ status: "delivered", response_status: 200, next_attempt_at: null })
    }
    // Nothing is left to send: no more can arrive.
    const stillPending = await app.call("GET", `/api/v3/webhook-subscriptions/${hook.id}/deliveries?status=pending`, { key: seed.key })
    expect(stillPending.body.data).toEqual([])

    // A second recover finds nothing to send.
    const again = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/recover`, { key: seed.key, body: { since } })
    expect(again.body.data.recovered).toBe(0)
  })

  it("recovers only the window asked for: since inclusive, until exclusive", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const hook = await subscribe(seed.key, "/window")
    down.add("/window")
    const early = await enqueue(seed.storeId, 1)
    await attempts.waitFor(() => attemptsTo(hook.id).length === 1)
    const late = await enqueue(seed.storeId, 2)
    await attempts.waitFor(() => attemptsTo(hook.id).length === 2)
    const events = await app.call("GET", "/api/v3/events", { key: seed.key })
    const createdOf = (id: number) => events.body.data.find((e: { id: string }) => e.id === `evt_${id}`).created_at as string
    down.delete("/window")

    const res = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/recover`, {
      key: seed.key,
      body: { since: createdOf(early.id), until: createdOf(late.id) }
    })
    expect(res.body.data.recovered).toBe(1)
    await attempts.waitFor(() => attemptsTo(hook.id).length === 3)
    expect(at("/window").at(-1)?.headers["x-webhook-id"]).toBe(`evt_${early.id}`)
    expect(attemptsTo(hook.id)[2]?.claim.trigger).toBe("recovery")
  })

  it("catches up with @signcraft/client as /docs/webhooks shows, beside the curl recipe", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const hook = await subscribe(seed.key, "/client")
    const client = new SigncraftClient({
      baseUrl: "http://127.0.0.1",
      apiKey: seed.key,
      fetch: (input, init) => app.handler(new Request(input, init))
    })
    const since = new Date(Date.now() - 1000).toISOString()
    down.add("/client")
    const missed = [await enqueue(seed.storeId, 1), await enqueue(seed.storeId, 2)]
    await attempts.waitFor(() => attemptsTo(hook.id).length === 2)
    down.delete("/client")

    const waiting: Array<{ readonly id: string }> = []
    for await (const event of client.paginate<{ readonly id: string }>("/api/v3/events", { delivery_status: "pending", created_after: since })) {
      waiting.push(event)
    }
    expect(waiting.map((e) => e.id)).toEqual([...missed].reverse().map((e) => `evt_${e.id}`))
    const patched = await client.v3.v3Webhooks.patchSubscription({ params: { webhook_id: hook.id }, payload: { status: "active" } })
    expect(patched.body.data.status).toBe("active")
    const { status, body } = await client.v3.v3Webhooks.recover({ params: { webhook_id: hook.id }, payload: { since } })
    expect(status).toBe(202)
    expect(body.data.recovered).toBe(2)
    await attempts.waitFor(() => attemptsTo(hook.id).length === 4)
    expect(attemptsTo(hook.id).slice(2).map((a) => a.result.error)).toEqual([null, null])
    expect(at("/client").slice(2).map((r) => r.headers["x-webhook-id"])).toEqual(missed.map((e) => `evt_${e.id}`))
    const test = await client.v3.v3Webhooks.sendTestEvent({ params: { webhook_id: hook.id } })
    expect(test.body.data.topic).toBe("webhook:test")

    const page = await app.handlerText("/docs/webhooks")
    expect(page).toContain(escapeHtml(RECOVERY_CURL))
    expect(page).toContain(escapeHtml(RECOVERY_CLIENT))
    for (const call of ["client.v3.v3Webhooks.recover(", "client.paginate(\"/api/v3/events\""]) expect(RECOVERY_CLIENT).toContain(call)
    expect(RECOVERY_CURL).toContain("/recover")
  })

  it("refuses a window that is not ISO 8601, and a recover of another Store's subscription", async () => {
    const seed = await app.seedStore({ scopes: SCOPES })
    const other = await app.seedStore({ scopes: SCOPES })
    const hook = await subscribe(seed.key, "/refused")
    const bad = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/recover`, { key: seed.key, body: { since: "yesterday" } })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].pointer).toBe("/since")
    const missing = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/recover`, { key: seed.key, body: {} })
    expect(missing.status).toBe(422)
    const foreign = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/recover`, {
      key: other.key,
      body: { since: "2026-01-01T00:00:00Z" }
    })
    expect(foreign.status).toBe(404)
    const reader = await app.seedStore({ scopes: ["webhooks:read"] })
    const readOnly = await app.call("POST", `/api/v3/webhook-subscriptions/${hook.id}/recover`, {
      key: reader.key,
      body: { since: "2026-01-01T00:00:00Z" }
    })
    expect(readOnly.status).toBe(403)
  })
})
