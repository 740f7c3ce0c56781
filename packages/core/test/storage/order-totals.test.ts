import { PgClient } from "@effect/sql-pg"
import { Deferred, Effect, Fiber, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_DATABASE_SCHEMA } from "../../src/storage/database-schema.js"
import { databaseVariants, GENEROUS_RATE_LIMITS, postgresVariant, startApp, type TestApp, type TestDatabase } from "@signcraft/test-kit"

const DAY = 86_400_000
const base = Date.UTC(2026, 0, 10, 12)

// The daily rollup against the orders it counts: per Store, UTC day and currency, summed over
// the shards; days whose orders were all removed sum to zero and are left out.
const rollupAndOrders = (storeId: number) => (sql: SqlClient.SqlClient) =>
  Effect.all([
    sql<{ key: string }>`
      SELECT day::text || ' ' || currency || ' ' || sum(order_count) || ' ' || sum(amount) AS key
      FROM order_daily_totals WHERE store_id = ${storeId}
      GROUP BY day, currency HAVING sum(order_count) <> 0 ORDER BY 1`,
    sql<{ key: string }>`
      SELECT (created_at AT TIME ZONE 'UTC')::date::text || ' ' || currency || ' ' || count(*) || ' ' || sum(total_amount) AS key
      FROM orders WHERE store_id = ${storeId} GROUP BY (created_at AT TIME ZONE 'UTC')::date, currency ORDER BY 1`
  ]).pipe(Effect.map(([rollup, orders]) => [{ key: rollup.map((r) => r.key).join("\n") }, { key: orders.map((r) => r.key).join("\n") }]))

describe.each(databaseVariants())("the daily order rollup ($name database)", (variant) => {
  let db: TestDatabase
  let app: TestApp
  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const expectExact = async (storeId: number) => {
    const [rollup, orders] = await app.query(rollupAndOrders(storeId))
    expect(rollup?.key).toBe(orders?.key)
    expect(orders?.key).not.toBe("")
  }

  const rowsOf = async (storeId: number) =>
    (await app.query((sql) => sql<{ rows: number }>`SELECT count(*)::int AS rows FROM order_daily_totals WHERE store_id = ${storeId}`))[0]?.rows

  it("spreads the orders written one at a time over several rows and stays exact through updates and deletes", async () => {
    const { storeId } = await app.seedStore({ scopes: ["store:read"] })
    for (let i = 1; i <= 40; i++) {
      await app.query((sql) => sql`
        INSERT INTO orders (store_id, source, total_amount, currency, created_at, updated_at)
        VALUES (${storeId}, 'v3', ${100 + i}, ${i % 3 === 0 ? "EUR" : "USD"}, ${new Date(base + (i % 2) * DAY)}, now())`)
    }
    await expectExact(storeId)
    const shards = await app.query((sql) =>
      sql<{ rows: number }>`SELECT count(*)::int AS rows FROM order_daily_totals
        WHERE store_id = ${storeId} AND day = ${new Date(base).toISOString().slice(0, 10)}::date AND currency = 'USD'`
    )
    expect(shards[0]?.rows).toBeGreaterThan(1)

    await app.query((sql) => sql`
      UPDATE orders SET created_at = created_at + interval '2 days', total_amount = total_amount * 2
      WHERE store_id = ${storeId} AND id % 4 = 0`)
    await app.query((sql) => sql`DELETE FROM orders WHERE store_id = ${storeId} AND id % 5 = 0`)
    await expectExact(storeId)
  })

  const shardsOf = async (storeId: number) =>
    (await app.query((sql) =>
      sql<{ shard: number }>`SELECT DISTINCT shard FROM order_daily_totals WHERE store_id = ${storeId} ORDER BY shard`
    )).map((row) => row.shard)

  it("counts an import in shard 0, one row per day and currency", async () => {
    const { storeId } = await app.seedStore({ scopes: ["store:read"] })
    await app.query((sql) => sql`
      INSERT INTO orders (store_id, source, total_amount, currency, created_at, updated_at)
      SELECT ${storeId}, 'import', 100 + i, CASE WHEN i % 3 = 0 THEN 'EUR' ELSE 'USD' END,
        ${new Date(base)}::timestamptz + (i % 2) * interval '1 day', now()
      FROM generate_series(1, 60) AS i`)
    await expectExact(storeId)
    expect(await rowsOf(storeId)).toBe(4)
    expect(await shardsOf(storeId)).toEqual([0])
  })

  it("counts the API orders one statement writes (a group commit's batch) in the shard of their smallest id", async () => {
    const { storeId } = await app.seedStore({ scopes: ["store:read"] })
    // The next id is 5 modulo 16, so the shard tells this rule from "shard 0 for many rows".
    await app.query((sql) => sql`
      SELECT setval(pg_get_serial_sequence('orders', 'id'),
        (SELECT (coalesce(max(id), 0) / 16 + 1) * 16 + 4 FROM orders))`)
    await app.query((sql) => sql`
      INSERT INTO orders (store_id, source, total_amount, currency, created_at, updated_at)
      SELECT ${storeId}, 'v3', 100 + i, CASE WHEN i % 3 = 0 THEN 'EUR' ELSE 'USD' END,
        ${new Date(base)}::timestamptz + (i % 2) * interval '1 day', now()
      FROM generate_series(1, 30) AS i`)
    await expectExact(storeId)
    expect(await rowsOf(storeId)).toBe(4)
    expect(await shardsOf(storeId)).toEqual([5])
  })

  it("stays exact when orders counted before the rows were sharded are removed", async () => {
    const { storeId } = await app.seedStore({ scopes: ["store:read"] })
    await app.query((sql) => sql`
      INSERT INTO orders (store_id, source, total_amount, currency, created_at, updated_at)
      SELECT ${storeId}, 'import', 10 * i, 'USD', ${new Date(base - 5 * DAY)}, now() FROM generate_series(1, 40) AS i`)
    // The layout before migration 0010: one row per Store, day and currency, in shard 0.
    await app.query((sql) => sql`
      WITH gone AS (DELETE FROM order_daily_totals WHERE store_id = ${storeId} RETURNING *)
      INSERT INTO order_daily_totals (store_id, day, currency, shard, order_count, amount)
      SELECT store_id, day, currency, 0, sum(order_count), sum(amount) FROM gone GROUP BY 1, 2, 3`)
    await app.query((sql) => sql`DELETE FROM orders WHERE store_id = ${storeId} AND id % 3 <> 0`)
    await app.query((sql) => sql`UPDATE orders SET currency = 'EUR' WHERE store_id = ${storeId} AND id % 2 = 0`)
    await expectExact(storeId)
  })
})

const url = process.env.DATABASE_URL

// Two connections, as two requests of one Store: the second order is written and committed
// while the first one's transaction still holds its rollup row.
describe.skipIf(url === undefined || url === "")("concurrent order writes of one Store (PostgreSQL)", () => {
  let db: TestDatabase
  let app: TestApp
  beforeAll(async () => {
    db = await postgresVariant(url ?? "").create()
    app = startApp(db.config, GENEROUS_RATE_LIMITS)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("does not make one wait for the other's commit", async () => {
    const { storeId } = await app.seedStore({ scopes: ["store:read"] })
    const connection = () => {
      if (db.config._tag !== "Postgres") throw new Error("a PostgreSQL database was expected")
      // Another process of the same deployment: its connections work in signcraft's schema.
      const startupParameters = { search_path: DEFAULT_DATABASE_SCHEMA }
      return ManagedRuntime.make(PgClient.layer({ url: Redacted.make(db.config.url), maxConnections: 1, startupParameters }))
    }
    const first = connection()
    const second = connection()
    const insert = (sql: SqlClient.SqlClient) =>
      sql`INSERT INTO orders (store_id, source, total_amount, currency) VALUES (${storeId}, 'v3', 500, 'USD')`
    try {
      const written = Deferred.makeUnsafe<void>()
      const release = Deferred.makeUnsafe<void>()
      const holder = first.runFork(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Effect.gen(function*() {
          yield* insert(sql)
          yield* Deferred.succeed(written, undefined)
          yield* Deferred.await(release)
        }).pipe(sql.withTransaction)
      }))
      await Effect.runPromise(Deferred.await(written))
      const outcome = await second.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* Effect.gen(function*() {
          yield* sql`SET LOCAL lock_timeout = '2s'`
          yield* insert(sql)
          return "committed"
        }).pipe(sql.withTransaction, Effect.catch((error) => Effect.succeed(String(error))))
      }))
      await Effect.runPromise(Deferred.succeed(release, undefined))
      await first.runPromise(Fiber.join(holder))
      expect(outcome).toBe("committed")
      const [rollup, orders] = await app.query(rollupAndOrders(storeId))
      expect(rollup?.key).toBe(orders?.key)
    } finally {
      await first.dispose()
      await second.dispose()
    }
  })
})
