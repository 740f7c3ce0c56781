import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verifyWebhook } from "../../src/domain/webhooks/signature.js"
import { sampleEventPayload } from "../../src/domain/webhooks/topics.js"
import { Outbox } from "../../src/services/webhooks/outbox.js"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { type Receiver, startReceiver } from "@signcraft/test-kit/receiver"

// docs/webhooks.md, in the manner of Svix: a failing endpoint is disabled after five days (a PATCH
// re-enables it), and a secret rotates with a 24-hour overlap during which either secret verifies.
describe.each(databaseVariants())("webhook endpoint health and secret rotation ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  let receiver: Receiver
  // Subscriptions whose attempt has been recorded, health pass included (onAttempt fires after it),
  // and the tests waiting on them: a latch, so no test waits on a later delivery to wake it.
  const recorded = new Set<number>()
  const waiting = new Set<() => void>()
  const onAttempt = (claim: { readonly subscriptionId: number }) => {
    recorded.add(claim.subscriptionId)
    for (const wake of waiting) wake()
  }
  const whenRecorded = (ids: ReadonlyArray<number>) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!ids.every((id) => recorded.has(id))) return
        waiting.delete(check)
        resolve()
      }
      waiting.add(check)
      check()
    })

  beforeAll(async () => {
    db = await variant.create()
    receiver = await startReceiver((request) => (request.path.startsWith("/down") ? 500 : 200))
    app = startApp(
      db.config,
      { rateLimitPerKeyPerMinute: 10_000, rateLimitPerIpPerMinute: 100_000, webhookRetryBaseMs: 20 },
      { deliveryWorker: { pollIntervalMs: 20, onAttempt } }
    )
    expect((await app.call("GET", "/healthz")).status).toBe(200)
  })
  afterAll(async () => {
    await app.dispose()
    await receiver.close()
    await db.cleanup()
  })

  const enqueue = (storeId: number) =>
    app.run(Effect.gen(function*() {
      return yield* (yield* Outbox).enqueue(storeId, "order:created", sampleEventPayload("order:created"))
    }))
  const at = (path: string) => receiver.received.filter((r) => r.path === path)

  it("signs with both secrets for 24 hours after a rotation: the old one in x-webhook-signature, the new one in x-webhook-signature-next", async () => {
    const seed = await app.seedStore({ scopes: ["webhooks:read", "webhooks:write"] })
    const created = await app.call("POST", "/api/v3/webhook-subscriptions", {
      key: seed.key,
      body: { topic: "order:created", url: receiver.url("/rotating") }
    })
    const oldSecret: string = created.body.data.secret
    const rotated = await app.call("POST", `/api/v3/webhook-subscriptions/${created.body.data.id}/rotate-secret`, { key: seed.key })
    expect(rotated.status).toBe(200)
    const newSecret: string = rotated.body.data.secret
    expect(newSecret).not.toBe(oldSecret)
    const overlapHours = (Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now()) / 3_600_000
    expect(overlapHours).toBeGreaterThan(23.9)
    expect(overlapHours).toBeLessThanOrEqual(24)

    await enqueue(seed.storeId)
    await receiver.waitFor(() => at("/rotating").length === 1)
    const [delivery] = at("/rotating")
    const rawBody = delivery?.rawBody ?? Buffer.alloc(0)
    const headers = delivery?.headers ?? {}
    expect(headers["x-webhook-signature-next"]).toBeDefined()
    // A naive receiver still holding the old secret, checking x-webhook-signature only.
    expect(verifyWebhook({ rawBody, headers: { ...headers, "x-webhook-signature-next": undefined }, secret: oldSecret }).ok).toBe(true)
    // verifyWebhook with the new secret, or both, at any time of the overlap.
    expect(verifyWebhook({ rawBody, headers, secret: newSecret }).ok).toBe(true)
    expect(verifyWebhook({ rawBody, headers, secret: [newSecret, oldSecret] }).ok).toBe(true)
    expect(verifyWebhook({ rawBody, headers, secret: "whsec_someone_else" })).toEqual({ ok: false, reason: "signature_mismatch" })

    // Once the overlap is over, only the new secret signs.
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE webhook_subscriptions SET previous_secret_expires_at = now() - interval '1 second' WHERE id = ${created.body.data.id}`
    }))
    await enqueue(seed.storeId)
    await receiver.waitFor(() => at("/rotating").length === 2)
    const after = at("/rotating")[1]
    expect(after?.headers["x-webhook-signature-next"]).toBeUndefined()
    expect(verifyWebhook({ rawBody: after?.rawBody ?? Buffer.alloc(0), headers: after?.headers ?? {}, secret: newSecret }).ok).toBe(true)
    expect(verifyWebhook({ rawBody: after?.rawBody ?? Buffer.alloc(0), headers: after?.headers ?? {}, secret: oldSecret }).ok).toBe(false)
  })

  it("disables a subscription whose deliveries kept failing for five days, shows it in v3 and v2 reads and the delivery log, and re-enables it on PATCH", async () => {
    const seed = await app.seedStore({ scopes: ["webhooks:read", "webhooks:write"] })
    const created = await app.call("POST", "/api/v3/webhook-subscriptions", {
      key: seed.key,
      body: { topic: "order:created", url: receiver.url("/down") }
    })
    const id: number = created.body.data.id
    // A failing streak that began six days ago (the database clock decides, so it is set there).
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE webhook_subscriptions SET failing_since = now() - interval '6 days' WHERE id = ${id}`
    }))
    await enqueue(seed.storeId)
    await whenRecorded([id])
    expect((await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })).body.data.status).toBe("disabled")
    const v2 = await app.call("GET", `/api/v2/webhooks/${id}`, { key: seed.key })
    expect(JSON.stringify(v2.body)).toContain(`"status":"disabled"`)
    const log = await app.call("GET", `/api/v3/webhook-subscriptions/${id}/deliveries`, { key: seed.key })
    expect(log.body.data[0]).toMatchObject({ status: "cancelled", last_error: "subscription disabled after failing for 5 days" })

    // Disabled: new events reach it no more.
    const before = at("/down").length
    await enqueue(seed.storeId)
    const patched = await app.call("PATCH", `/api/v3/webhook-subscriptions/${id}`, {
      key: seed.key,
      body: { status: "active", url: receiver.url("/up-again") }
    })
    expect(patched.status).toBe(200)
    expect(patched.body.data.status).toBe("active")
    expect(at("/down").length).toBe(before)
    await enqueue(seed.storeId)
    await receiver.waitFor(() => at("/up-again").length === 1)
  })

  it("disables at five days of failing, not a day before or after: a streak of 4 d 23 h stays active, one of 5 d 1 h is disabled", async () => {
    const seed = await app.seedStore({ scopes: ["webhooks:read", "webhooks:write"] })
    const subscribe = async (path: string, streak: string) => {
      const created = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:created", url: receiver.url(path) } })
      const id: number = created.body.data.id
      await app.run(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE webhook_subscriptions SET failing_since = now() - ${streak}::interval WHERE id = ${id}`
      }))
      return id
    }
    const young = await subscribe("/down-young", "4 days 23 hours")
    const old = await subscribe("/down-old", "5 days 1 hour")
    await enqueue(seed.storeId)
    await whenRecorded([young, old])
    const status = async (id: number) => (await app.call("GET", `/api/v3/webhook-subscriptions/${id}`, { key: seed.key })).body.data.status
    expect(await status(young)).toBe("active")
    expect(await status(old)).toBe("disabled")
  })

  it("refuses any other status in a PATCH", async () => {
    const seed = await app.seedStore({ scopes: ["webhooks:read", "webhooks:write"] })
    const created = await app.call("POST", "/api/v3/webhook-subscriptions", { key: seed.key, body: { topic: "order:created", url: receiver.url("/x") } })
    const res = await app.call("PATCH", `/api/v3/webhook-subscriptions/${created.body.data.id}`, { key: seed.key, body: { status: "disabled" } })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].pointer).toBe("/status")
  })
})
