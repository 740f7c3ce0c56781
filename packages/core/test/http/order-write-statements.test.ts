import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isSealed, keepPlain } from "../../src/domain/credentials/secret-box.js"
import { SecretBox } from "../../src/services/credentials/secret-box.js"
import { sealPlaintextSecrets } from "../../src/services/credentials/secrets-at-rest.js"
import { defaultSettings, Settings } from "../../src/services/settings.js"
import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, type TestApp, type TestDatabase } from "@signcraft/test-kit"
import { statementRecorder } from "@signcraft/test-kit/statements"

const CALLBACK_URL = "https://shop.example.com/signcraft/products"

// The order write is the service's hottest write: its round trips to the database are counted
// here, so one added by accident (a lookup, a transaction) is seen, not only measured later.
describe.each(databaseVariants())("the statements of an order write ($name database)", (variant) => {
  let db: TestDatabase
  let app: TestApp
  const recorder = statementRecorder()
  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS, {}, { layer: recorder.layer })
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  // A Store with a product and an integration to order it through.
  const seedShop = async (scopes: ReadonlyArray<string> = []) => {
    const store = await app.seedStore({ scopes: ["orders:write", "orders:read", "products:write", ...scopes] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: CALLBACK_URL })
    const product = await app.call("POST", `/api/v3/customisers/${customiserId}/products`, {
      key: store.key,
      body: { integration_id: integration.body.id, title: "Neon", price_amount: 12500, currency: "USD" }
    })
    expect(product.status).toBe(201)
    const order = (storeOrderId: string, productId: number = product.body.data.id) => ({
      integration_id: integration.body.id,
      store_order_id: storeOrderId,
      total_amount: 25000,
      line_items: [{ product_id: productId, quantity: 2 }]
    })
    return { ...store, order }
  }

  // POST /api/v3/orders with `shop`'s key, under `idempotencyKey` when given.
  const postOrder = (shop: { readonly key: string }, body: unknown, idempotencyKey?: string) =>
    app.call("POST", "/api/v3/orders", {
      key: shop.key,
      body,
      headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }
    })

  // The statements the last request(s) ran for the order. A key is trusted for a second and a
  // quota is leased per minute window (credentials.ts, rate-limiter.ts): a slow machine or a
  // minute's edge between two requests has them fetched again, which is not the order's doing.
  const orderStatements = () =>
    recorder.requestStatements().filter((text) => !/\bapi_keys\b|\brate_limit_windows\b/.test(text))

  // A new shop and one order of it, and a function that sends that order under `idempotencyKey`.
  const orderUnderKey = async (storeOrderId: string, idempotencyKey: string) => {
    const store = await seedShop()
    const order = store.order(storeOrderId)
    return { store, order, send: () => postOrder(store, order, idempotencyKey) }
  }

  it("reads once and writes the order with its event in one statement", async () => {
    const store = await seedShop()
    const order = store.order("A-1")
    // The first request of a key fetches what later ones find in memory (the key, its quota).
    expect((await postOrder(store, order)).status).toBe(201)

    recorder.clear()
    const res = await postOrder(store, order)
    expect(res.status).toBe(201)
    const statements = orderStatements()
    const touchingOrders = statements.filter((text) => /\borders\b/.test(text))
    expect(touchingOrders).toHaveLength(2)
    expect(touchingOrders[1]).toMatch(/INSERT INTO orders[\s\S]*INSERT INTO events/)
    // Nothing else: the integration, the products, the Store's currency and the order's id all
    // come from the one read.
    expect(statements).toHaveLength(2)
  })

  it("keeps an idempotent order's answer in the order's own statement", async () => {
    const store = await seedShop()
    expect((await postOrder(store, store.order("warm"))).status).toBe(201)

    recorder.clear()
    const order = store.order("K-1")
    const res = await postOrder(store, order, "own-statement")
    expect(res.status).toBe(201)
    const statements = orderStatements()
    // The read claims the key, then the order, its answer and its event go together: no
    // statement of its own for the claim or for the answer.
    expect(statements).toHaveLength(2)
    expect(statements[0]).toMatch(/INSERT INTO idempotency_keys[\s\S]*nextval/)
    expect(statements[1]).toMatch(/INSERT INTO orders[\s\S]*UPDATE idempotency_keys[\s\S]*INSERT INTO events/)
    const replay = await postOrder(store, order, "own-statement")
    expect(replay.headers.get("idempotency-replay")).toBe("true")
    expect(replay.body).toEqual(res.body)
  })

  it("keeps an order's answer in plain, marked, where a webhook subscription's is sealed; start-up sealing leaves it so", async () => {
    const store = await seedShop(["webhooks:write"])
    const order = await postOrder(store, store.order("P-1"), "plain-answer")
    expect(order.status).toBe(201)
    const hook = await app.call("POST", "/api/v3/webhook-subscriptions", {
      key: store.key,
      body: { topic: "order:created", url: "http://127.0.0.1:9/hook" },
      headers: { "idempotency-key": "sealed-answer" }
    })
    expect(hook.status).toBe(201)
    const kept = async () =>
      Object.fromEntries(
        (await app.query((sql) => sql<{ idempotency_key: string; response_body: string }>`
          SELECT idempotency_key, response_body FROM idempotency_keys WHERE store_id = ${store.storeId}
            AND idempotency_key IN ('plain-answer', 'sealed-answer')`)).map((row) => [row.idempotency_key, row.response_body])
      )
    const before = await kept()
    expect(before["plain-answer"]).toBe(keepPlain(JSON.stringify(order.body)))
    expect(isSealed(before["sealed-answer"] ?? "")).toBe(true)
    expect(before["sealed-answer"]).not.toContain(hook.body.data.secret)
    // The start-up pass seals plaintext from before sealing, not what is plain on purpose.
    const settings = Layer.succeed(Settings, defaultSettings({ environment: "test" }))
    await app.query((sql) =>
      sealPlaintextSecrets.pipe(
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.provide(SecretBox.layer.pipe(Layer.provide(settings))),
        Effect.map((sealed) => [{ sealed }])
      )
    )
    expect(await kept()).toEqual(before)
    const replay = await postOrder(store, store.order("P-1"), "plain-answer")
    expect(replay.headers.get("idempotency-replay")).toBe("true")
    expect(replay.body).toEqual(order.body)
  })

  it("writes one order for one key sent twice at once; the other answer replays it or says it is in flight", async () => {
    const { store, send } = await orderUnderKey("T-1", "twice")
    const answers = await Promise.all([send(), send()])
    const written = answers.filter((answer) => answer.status === 201 && answer.headers.get("idempotency-replay") === null)
    expect(written).toHaveLength(1)
    const other = answers.find((answer) => answer !== written[0])
    if (other?.status === 201) {
      expect(other.headers.get("idempotency-replay")).toBe("true")
      expect(other.body).toEqual(written[0]?.body)
    } else {
      expect(other?.status).toBe(409)
      expect(other?.body.code).toBe("idempotency_key_in_flight")
    }
    const orders = await app.query((sql) => sql<{ id: number }>`
      SELECT id FROM orders WHERE store_id = ${store.storeId} AND store_order_id = 'T-1'`)
    expect(orders.map((row) => Number(row.id))).toEqual([written[0]?.body.data.id])
  })

  it("takes over a key whose retention ended in the read that claims it", async () => {
    const { store, send } = await orderUnderKey("E-1", "lapsed")
    const first = await send()
    expect(first.status).toBe(201)
    await app.query((sql) => sql`
      UPDATE idempotency_keys SET expires_at = now() - interval '1 second'
      WHERE store_id = ${store.storeId} AND idempotency_key = 'lapsed'`)
    const again = await send()
    expect(again.status).toBe(201)
    expect(again.headers.get("idempotency-replay")).toBeNull()
    expect(again.body.data.id).not.toBe(first.body.data.id)
    const replay = await send()
    expect(replay.headers.get("idempotency-replay")).toBe("true")
    expect(replay.body).toEqual(again.body)
  })

  it("commits an order and its kept answer together, so a failed answer leaves no order to repeat", async () => {
    const { store, send } = await orderUnderKey("F-1", "refused-answer")
    const ordersOf = async () =>
      (await app.query((sql) => sql<{ id: number }>`
        SELECT id FROM orders WHERE store_id = ${store.storeId} AND store_order_id = 'F-1'`)).length
    // Keeping this key's answer fails, as if the process died between the order and its answer.
    await app.query((sql) => sql.unsafe(`
      CREATE FUNCTION refuse_answer() RETURNS trigger LANGUAGE plpgsql AS $body$
      BEGIN
        IF NEW.idempotency_key = 'refused-answer' AND NEW.state = 'completed' THEN RAISE EXCEPTION 'answer refused'; END IF;
        RETURN NEW;
      END $body$`))
    await app.query((sql) => sql.unsafe(`
      CREATE TRIGGER refuse_answer BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION refuse_answer()`))
    try {
      expect((await send()).status).toBe(500)
      expect(await ordersOf()).toBe(0)
    } finally {
      await app.query((sql) => sql.unsafe("DROP TRIGGER refuse_answer ON idempotency_keys"))
      await app.query((sql) => sql.unsafe("DROP FUNCTION refuse_answer()"))
    }
    // The key was released with nothing written: the retry writes the order, once.
    const retried = await send()
    expect(retried.status).toBe(201)
    expect(retried.headers.get("idempotency-replay")).toBeNull()
    expect(await ordersOf()).toBe(1)
    const replay = await send()
    expect(replay.headers.get("idempotency-replay")).toBe("true")
    expect(replay.body.data.id).toBe(retried.body.data.id)
  })

  it("shares statements among concurrent order writes, and writes each as if alone", async () => {
    const withHook = await seedShop(["webhooks:write"])
    const hook = await app.call("POST", "/api/v3/webhook-subscriptions", {
      key: withHook.key,
      body: { topic: "order:created", url: "http://127.0.0.1:9/hook" }
    })
    expect(hook.status).toBe(201)
    const other = await seedShop()
    const sends = Array.from({ length: 12 }, (_, n) => {
      const shop = n % 2 === 0 ? withHook : other
      // One order names a product no Store has: refused on its own, in the middle of the batch.
      const body = n === 5 ? shop.order(`order-${n}`, 2_000_000_000) : shop.order(`order-${n}`)
      return { shop, body, key: `batch-key-${n}` }
    })
    // Warm the keys' caches, so only order statements are counted.
    for (const shop of [withHook, other]) {
      expect((await postOrder(shop, shop.order("warm"))).status).toBe(201)
    }

    recorder.clear()
    const answers = await Promise.all(sends.map(({ shop, body, key }) =>
      app.call("POST", "/api/v3/orders", { key: shop.key, body, headers: { "idempotency-key": key } })
    ))
    const statements = orderStatements()
    expect(answers.map((answer) => answer.status)).toEqual(sends.map((_, n) => n === 5 ? 422 : 201))
    expect(answers[5]?.body.errors[0].code).toBe("unknown_product")
    // Alone, each of the 12 would take 2 statements (read with its claim, write with its answer).
    expect(statements.length).toBeLessThanOrEqual(8)

    const accepted = sends.flatMap((send, n) => n === 5 ? [] : [{ ...send, answer: answers[n] }])
    expect(new Set(accepted.map(({ answer }) => answer?.body.data.id)).size).toBe(11)
    for (const { shop, body, answer } of accepted) {
      const read = await app.call("GET", `/api/v3/orders/${answer?.body.data.id}`, { key: shop.key })
      expect(read.status).toBe(200)
      expect(read.body.data.store_order_id).toBe(body.store_order_id)
    }
    const events = await app.query((sql) =>
      sql<{ store_id: number; order_id: string; external_id: string; deliveries: number }>`
        SELECT e.store_id, e.body::jsonb -> 'order' ->> 'order_id' AS order_id, e.body::jsonb -> 'order' ->> 'external_id' AS external_id,
          (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.id) AS deliveries
        FROM events e WHERE e.topic = 'order:created' AND e.store_id IN (${withHook.storeId}, ${other.storeId})
          AND e.body::jsonb -> 'order' ->> 'external_id' LIKE 'order-%'`
    )
    // One event per accepted order, carrying that order, in its Store, delivered to its Store's subscription.
    expect(events.map((event) => [event.store_id, Number(event.order_id), event.external_id, event.deliveries]).sort()).toEqual(
      accepted.map(({ shop, body, answer }) => [shop.storeId, answer?.body.data.id, body.store_order_id, shop === withHook ? 1 : 0]).sort()
    )
    // Each key keeps its own answer.
    for (const { shop, body, key, answer } of accepted) {
      const replay = await app.call("POST", "/api/v3/orders", { key: shop.key, body, headers: { "idempotency-key": key } })
      expect(replay.headers.get("idempotency-replay")).toBe("true")
      expect(replay.body).toEqual(answer?.body)
    }
  })
})
