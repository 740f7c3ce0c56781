import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pruneRetained, RETENTION_BATCH } from "../../src/services/operations/retention.js"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { startOAuthApp } from "@signcraft/test-kit/oauth"

// RETENTION_DAYS (docs/configuration.md): what is older than the horizon goes, in batches;
// anything still pending or recent stays.
describe.each(databaseVariants())("retention ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(db.config)
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("deletes settled events, attempts, revoked grants and quotes older than the horizon, in batches, and keeps the rest", async () => {
    const { merchant, client } = await app.connect()
    const storeId = merchant.storeIds[0] ?? 0
    const customiser = await app.operator("POST", `/stores/${storeId}/customisers`, {
      name: "Quote form",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    expect(customiser.status).toBe(201)
    const list = await app.operator("GET", `/stores/${storeId}/connections`)
    expect((await app.operator("DELETE", `/connections/${list.body.data[0].id}`)).status).toBe(204)

    const seeded = await app.runSql(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [subscription] = yield* sql<{ id: number }>`
        INSERT INTO webhook_subscriptions (store_id, topic, url, secret) VALUES (${storeId}, 'order:created', 'http://127.0.0.1:9/', 'sc1.x')
        RETURNING id`
      // More old settled events than one batch holds, one old event still pending, one recent.
      const event = (age: string) => sql<{ id: number }>`
        INSERT INTO events (store_id, topic, body, created_at)
        VALUES (${storeId}, 'order:created', '{}', now() - ${age}::interval) RETURNING id`
      const delivery = (eventId: number, status: string) => sql<{ id: number }>`
        INSERT INTO webhook_deliveries (event_id, subscription_id, status) VALUES (${eventId}, ${subscription?.id ?? 0}, ${status}) RETURNING id`
      for (let i = 0; i < RETENTION_BATCH + 5; i++) {
        const [old] = yield* event("40 days")
        const [sent] = yield* delivery(old?.id ?? 0, i % 2 === 0 ? "delivered" : "failed")
        yield* sql`
          INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, duration_ms)
          VALUES (${sent?.id ?? 0}, 1, now() - interval '40 days', 5)`
      }
      const [pending] = yield* event("40 days")
      yield* delivery(pending?.id ?? 0, "pending")
      const [recent] = yield* event("1 day")
      const [recentDelivery] = yield* delivery(recent?.id ?? 0, "delivered")
      yield* sql`
        INSERT INTO webhook_attempts (delivery_id, attempt_number, started_at, duration_ms) VALUES (${recentDelivery?.id ?? 0}, 1, now(), 5)`
      yield* sql`UPDATE oauth_grants SET revoked_at = now() - interval '40 days' WHERE store_id = ${storeId}`
      for (const [n, age] of [[1, "40 days"], [2, "1 day"]] as const) {
        yield* sql`
          INSERT INTO quotes (store_id, customiser_id, submission_number, responses, created_at)
          VALUES (${storeId}, ${customiser.body.id}, ${n}, '[]', now() - ${age}::interval)`
      }
      return { pending: pending?.id, recent: recent?.id }
    }))

    const counts = await app.runSql(pruneRetained(30))
    expect(counts).toEqual({ attempts: RETENTION_BATCH + 5, events: RETENTION_BATCH + 5, grants: 1, quotes: 1 })

    const left = await app.runSql(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const events = yield* sql<{ id: number }>`SELECT id FROM events WHERE store_id = ${storeId} ORDER BY id`
      const attempts = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM webhook_attempts`
      const grants = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM oauth_grants WHERE store_id = ${storeId}`
      const tokens = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM oauth_refresh_tokens WHERE client_id = ${client.clientId}`
      const quotes = yield* sql<{ n: number }>`SELECT submission_number AS n FROM quotes WHERE store_id = ${storeId}`
      return {
        events: events.map((e) => Number(e.id)),
        attempts: attempts[0]?.n,
        grants: grants[0]?.n,
        tokens: tokens[0]?.n,
        quotes: quotes.map((q) => q.n)
      }
    }))
    expect(left).toEqual({ events: [Number(seeded.pending), Number(seeded.recent)], attempts: 1, grants: 0, tokens: 0, quotes: [2] })
    // A second pass finds nothing more.
    expect(await app.runSql(pruneRetained(30))).toEqual({ attempts: 0, events: 0, grants: 0, quotes: 0 })
  })
})
