import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Queue, Redacted } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { afterEach, describe, expect, it } from "vitest"
import { Identity } from "../../src/services/credentials/identity.js"
import { ChangeSignals, channelIn } from "../../src/storage/change-signals.js"
import { isDatabaseSchemaName } from "../../src/storage/database-schema.js"
import { type DatabaseConfig, layerDatabase } from "../../src/storage/database.js"
import { layerEmbedded } from "../../src/storage/embedded.js"
import { migrations } from "../../src/storage/migrations/index.js"
import { databaseVariants, GENEROUS_RATE_LIMITS, startApp, type TestDatabase } from "@signcraft/test-kit"

type Sql = SqlClient.SqlClient
type SqlRuntime = ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>

// The last migration of the release that kept everything in `public`.
const PUBLIC_RELEASE_LAST_MIGRATION = 12

// That release's migrations, run as it ran them: its own migrations table, in `public`.
const migratePublicRelease = Migrator.make({})({
  loader: Effect.map(migrations, (all) => all.filter(([id]) => id <= PUBLIC_RELEASE_LAST_MIGRATION)),
  table: "signcraft_migrations"
})

const CALLBACK_URL = "http://127.0.0.1:9/never-called"

// Everything `public` holds by name: relations (tables, sequences, indexes), functions and types.
const publicObjects = (sql: Sql) =>
  Effect.map(
    sql<{ object: string }>`
      SELECT 'relation ' || relname AS object FROM pg_class WHERE relnamespace = 'public'::regnamespace
      UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
      UNION ALL SELECT 'type ' || typname FROM pg_type WHERE typnamespace = 'public'::regnamespace
      ORDER BY 1`,
    (rows) => rows.map((row) => row.object)
  )

// The host's tables as they stand: every row, every column, and when they were last ANALYZEd.
const hostState = (sql: Sql) =>
  Effect.all({
    orders: sql`SELECT * FROM public.orders ORDER BY id`,
    stores: sql`SELECT * FROM public.stores ORDER BY id`,
    columns: sql`
      SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    analyzed: sql`
      SELECT relname, analyze_count, last_analyze FROM pg_stat_user_tables
      WHERE schemaname = 'public' ORDER BY relname`
  })

// Makes the statistics views count this session's changes from the next statement on.
const flushStatistics = (sql: Sql) => sql`SELECT pg_stat_force_next_flush()`

const lastAnalyzed = (sql: Sql, schema: string, table: string) =>
  Effect.map(
    sql<{ last_analyze: Date | null }>`
      SELECT last_analyze FROM pg_stat_user_tables WHERE schemaname = ${schema} AND relname = ${table}`,
    (rows) => rows[0]?.last_analyze ?? null
  )

// Polls, for a bounded time, until `done` answers true; answers whether it did.
const eventually = async (done: () => Promise<boolean>) => {
  for (let look = 0; look < 200; look += 1) {
    if (await done()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

describe.each(databaseVariants())("signcraft's own schema ($name database)", (variant) => {
  const cleanups: Array<() => Promise<void>> = []
  // Every cleanup runs, latest first, even when one fails (the first failure is the test's).
  afterEach(async () => {
    const failures: Array<unknown> = []
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => failures.push(error))
    if (failures.length > 0) throw failures[0]
  })
  const create = async (): Promise<TestDatabase> => {
    const db = await variant.create()
    cleanups.push(db.cleanup)
    return db
  }
  const later = <A extends { readonly dispose: () => Promise<void> }>(disposable: A): A => {
    cleanups.push(() => disposable.dispose())
    return disposable
  }

  // The database as its host (or signcraft's previous release) sees it: `public` first. On
  // PostgreSQL a plain connection; the embedded database has no other way in than signcraft's.
  const openPublic = (config: DatabaseConfig): SqlRuntime =>
    ManagedRuntime.make(
      config._tag === "Postgres"
        ? PgClient.layer({ url: Redacted.make(config.url), maxConnections: 2 })
        : layerEmbedded(config.location, { schema: "public", statisticsInterval: "24 hours" })
    )
  const runOn = <A>(runtime: SqlRuntime, statement: (sql: Sql) => Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, statement))

  it("serves a database whose public schema holds the host's own orders and stores, which it leaves as they were, unanalyzed", async () => {
    const db = await create()
    const host = openPublic(db.config)
    await runOn(host, (sql) =>
      Effect.gen(function*() {
        // Autovacuum leaves them alone too: any ANALYZE of theirs would be signcraft's.
        yield* sql`
          CREATE TABLE public.orders (id serial PRIMARY KEY, reference text NOT NULL, placed_on date NOT NULL)
          WITH (autovacuum_enabled = false)`
        yield* sql`CREATE TABLE public.stores (id serial PRIMARY KEY, title text NOT NULL, city text) WITH (autovacuum_enabled = false)`
        yield* sql`
          INSERT INTO public.orders (reference, placed_on)
          SELECT 'H-' || g, date '2025-01-01' + g FROM generate_series(1, 200) g`
        yield* sql`INSERT INTO public.stores (title, city) SELECT 'Host store ' || g, 'Leeds' FROM generate_series(1, 200) g`
      }))
    // The embedded database opens in one place at a time: the host's later work goes through the
    // one connection there is.
    if (db.config._tag === "Embedded") await host.dispose()
    else later(host)
    const app = later(startApp({ ...db.config, statisticsInterval: "0.1 seconds" }, GENEROUS_RATE_LIMITS))
    const asHost = <A>(statement: (sql: Sql) => Effect.Effect<A, unknown, SqlClient.SqlClient>): Promise<A> =>
      db.config._tag === "Postgres"
        ? runOn(host, statement)
        : app.query<{ readonly value: A }>((sql) =>
          Effect.map(Effect.provideService(statement(sql), SqlClient.SqlClient, sql), (value) => [{ value }])
        ).then(([row]) => {
          if (row === undefined) throw new Error("the statement answered nothing")
          return row.value
        })

    // The host keeps working on its tables while signcraft runs: the changes since their last
    // ANALYZE (none) would make the statistics pass pick them, were it to look outside its schema.
    await asHost((sql) =>
      Effect.gen(function*() {
        yield* sql`UPDATE public.orders SET reference = reference`
        yield* sql`UPDATE public.stores SET city = city`
        yield* flushStatistics(sql)
      }))
    const before = await asHost(hostState)
    const store = await app.seedStore({ scopes: ["orders:write", "orders:read", "products:write"] })
    const customiserId = await app.seedCustomiser(store.storeId)
    const integration = await app.operator("POST", `/stores/${store.storeId}/integrations`, { create_product_url: CALLBACK_URL })
    const product = await app.call("POST", `/api/v3/customisers/${customiserId}/products`, {
      key: store.key,
      body: { integration_id: integration.body.id, title: "Custom neon", price_amount: 12500, currency: "USD" }
    })
    expect(product.status).toBe(201)
    const created = await app.call("POST", "/api/v3/orders", {
      key: store.key,
      body: {
        integration_id: integration.body.id,
        total_amount: 25000,
        currency: "USD",
        line_items: [{ product_id: product.body.data.id, quantity: 2 }]
      }
    })
    expect(created.status).toBe(201)
    const read = await app.call("GET", `/api/v3/orders/${created.body.data.id}`, { key: store.key })
    expect(read.status).toBe(200)
    expect(read.body.data).toMatchObject({ id: created.body.data.id, total_amount: 25000, currency: "USD" })
    expect(await app.query((sql) => sql`SELECT id FROM signcraft.orders`)).toEqual([{ id: created.body.data.id }])

    // A table of signcraft's own, changed enough to be analyzed: once the pass has, a pass saw the
    // host's tables as changed since their last ANALYZE too.
    await app.query((sql) =>
      Effect.gen(function*() {
        yield* sql`CREATE TABLE statistics_probe (id serial PRIMARY KEY)`
        yield* sql`INSERT INTO statistics_probe SELECT FROM generate_series(1, 200)`
        return yield* flushStatistics(sql)
      }))
    const probed = await eventually(async () =>
      (await app.query((sql) => Effect.map(lastAnalyzed(sql, "signcraft", "statistics_probe"), (at) => [{ at }])))[0]?.at !== null
    )
    expect(probed).toBe(true)

    const after = await asHost(hostState)
    expect(after).toEqual(before)
    expect(before.analyzed).toHaveLength(2)
  })

  it("keeps two deployments in two schemas of one database apart", async () => {
    const db = await create()
    const inSchema = (schema: string): DatabaseConfig => ({ ...db.config, schema })
    const companies = (sql: Sql) => sql<{ id: number; name: string }>`SELECT id, name FROM companies ORDER BY id`

    const first = later(startApp(inSchema("tenant_a")))
    const a = await first.seedStore()
    await first.operator("POST", "/companies", { name: "Only in A" })
    // The embedded database opens in one place at a time: the deployments take turns.
    if (db.config._tag === "Embedded") await first.dispose()

    const second = later(startApp(inSchema("tenant_b")))
    expect((await second.call("GET", "/api/v3/stores/me", { key: a.key })).status).toBe(401)
    const b = await second.seedStore()
    // Sequences of its own: the same first ids.
    expect(b.storeId).toBe(a.storeId)
    expect(await second.run(Effect.flatMap(SqlClient.SqlClient, companies))).toEqual([{ id: 1, name: "Acme" }])
    expect((await second.call("GET", "/api/v3/stores/me", { key: b.key })).status).toBe(200)

    if (db.config._tag === "Embedded") await second.dispose()
    const again = db.config._tag === "Embedded" ? later(startApp(inSchema("tenant_a"))) : first
    expect((await again.call("GET", "/api/v3/stores/me", { key: a.key })).status).toBe(200)
    expect((await again.call("GET", "/api/v3/stores/me", { key: b.key })).status).toBe(401)
    expect(await again.run(Effect.flatMap(SqlClient.SqlClient, companies))).toEqual([
      { id: 1, name: "Acme" },
      { id: 2, name: "Only in A" }
    ])
    expect(await again.run(Effect.flatMap(SqlClient.SqlClient, publicObjects))).toEqual([])
  })

  if (variant.name === "postgres") {
    it("keeps the change signals of two schemas of one database apart", async () => {
      const db = await create()
      const first = later(ManagedRuntime.make(layerDatabase({ ...db.config, schema: "tenant_a" })))
      const second = later(ManagedRuntime.make(layerDatabase({ ...db.config, schema: "tenant_b" })))
      const signal = (runtime: typeof first, payload: string) =>
        runtime.runPromise(Effect.gen(function*() {
          yield* (yield* ChangeSignals).signal("probe", payload)
        }))
      // Notifications reach a listener in the order their transactions committed: had the other
      // schema's signal been heard, it would come first.
      const heard = await first.runPromise(
        Effect.scoped(
          Effect.gen(function*() {
            const signals = yield* ChangeSignals
            const payloads = yield* signals.listen("probe")
            yield* Effect.promise(() => signal(second, "from tenant_b"))
            yield* Effect.promise(() => signal(first, "from tenant_a"))
            return yield* Queue.take(payloads)
          })
        )
      )
      expect(heard).toBe("from tenant_a")
    })
  }

  it("moves a database of the release that kept everything in public into the schema on its first start", async () => {
    const db = await create()
    const previous = openPublic(db.config)
    const untouched = await runOn(previous, publicObjects)
    const { storeId, orderId } = await runOn(previous, (sql) =>
      Effect.gen(function*() {
        yield* migratePublicRelease
        const [company] = yield* sql<{ id: number }>`INSERT INTO companies (name) VALUES ('Old company') RETURNING id`
        const [store] = yield* sql<{ id: number }>`
          INSERT INTO stores (company_id, name, platform, currency) VALUES (${company?.id}, 'Old shop', 'custom', 'EUR') RETURNING id`
        const [order] = yield* sql<{ id: number }>`
          INSERT INTO orders (store_id, source, total_amount, currency) VALUES (${store?.id}, 'v3', 4200, 'EUR') RETURNING id`
        return { storeId: store?.id ?? 0, orderId: order?.id ?? 0 }
      }))
    expect(await runOn(previous, (sql) => sql`SELECT to_regclass('public.orders')::text AS name`)).toEqual([{ name: "orders" }])
    await previous.dispose()

    if (db.config._tag === "Postgres") {
      // Processes starting together: one of them moves it, and both serve it.
      const starts = [later(ManagedRuntime.make(layerDatabase(db.config))), later(ManagedRuntime.make(layerDatabase(db.config)))]
      const names = await Promise.all(starts.map((runtime) => runOn(runtime, (sql) => sql`SELECT name FROM companies`)))
      expect(names).toEqual([[{ name: "Old company" }], [{ name: "Old company" }]])
      for (const runtime of starts.splice(0)) await runtime.dispose()
    }

    const app = later(startApp(db.config))
    const key = await app.operator("POST", `/stores/${storeId}/api-keys`, { mode: "test", scopes: ["orders:read", "store:read"] })
    expect(key.status).toBe(201)
    const order = await app.call("GET", `/api/v3/orders/${orderId}`, { key: key.body.key })
    expect(order.status).toBe(200)
    expect(order.body.data).toMatchObject({ id: orderId, total_amount: 4200, currency: "EUR" })
    const found = await app.run(Effect.gen(function*() {
      return yield* (yield* Identity).findStore(storeId)
    }))
    expect(found).toMatchObject({ name: "Old shop" })
    // The identity sequences moved with their tables.
    expect((await app.operator("POST", "/companies", { name: "New company" })).body.id).toBe(2)

    const inspect = (sql: Sql) =>
      Effect.all({
        publicObjects: publicObjects(sql),
        migrations: sql<{ count: number }>`SELECT count(*)::int AS count FROM signcraft.signcraft_migrations`,
        rollup: sql<{ orders: number }>`SELECT sum(order_count)::int AS orders FROM signcraft.order_daily_totals`
      })
    expect(await app.run(Effect.flatMap(SqlClient.SqlClient, inspect))).toEqual({
      publicObjects: untouched,
      migrations: [{ count: (await Effect.runPromise(migrations)).length }],
      rollup: [{ orders: 1 }]
    })
  })

  it("counts orders in its own rollup whatever the search_path of the session that writes them", async () => {
    const db = await create()
    const app = later(startApp(db.config, GENEROUS_RATE_LIMITS))
    const { storeId } = await app.seedStore({ scopes: ["store:read"] })
    // An administrator's session, say, where `public` comes first.
    const asAdministrator = (statement: (sql: Sql) => Effect.Effect<unknown, unknown>) =>
      app.query((sql) =>
        sql.withTransaction(Effect.andThen(sql`SET LOCAL search_path TO public`, Effect.as(statement(sql), [])))
      )
    await asAdministrator((sql) =>
      sql`INSERT INTO signcraft.orders (store_id, source, total_amount, currency) VALUES (${storeId}, 'import', 700, 'USD')`
    )
    const rollup = () =>
      app.query((sql) =>
        sql<{ orders: number; amount: number }>`
          SELECT sum(order_count)::int AS orders, sum(amount)::int AS amount FROM order_daily_totals WHERE store_id = ${storeId}`
      )
    expect(await rollup()).toEqual([{ orders: 1, amount: 700 }])
    await asAdministrator((sql) => sql`DELETE FROM signcraft.orders WHERE store_id = ${storeId}`)
    expect(await rollup()).toEqual([{ orders: 0, amount: 0 }])
  })

  it("refuses a schema that is not a plain SQL identifier, before opening the database", async () => {
    const db = await create()
    const runtime = later(ManagedRuntime.make(layerDatabase({ ...db.config, schema: "Signcraft" })))
    await expect(runtime.runPromise(Effect.void)).rejects.toThrow(
      'databaseSchema must be a lower-case SQL identifier: a letter or _, then letters, digits or _, at most 63 characters, not pg_… or information_schema, got "Signcraft"'
    )
  })

  if (variant.name === "postgres") {
    it("stays in its schema when DATABASE_URL's options name another search_path", async () => {
      const db = await create()
      if (db.config._tag !== "Postgres") throw new Error("a PostgreSQL database was expected")
      const url = new URL(db.config.url)
      url.searchParams.set("options", "-c search_path=public")
      const runtime = later(ManagedRuntime.make(layerDatabase({ ...db.config, url: url.toString() })))
      expect(await runOn(runtime, (sql) => sql`SHOW search_path`)).toEqual([{ search_path: "signcraft" }])
      expect(await runOn(runtime, (sql) => sql`SELECT to_regclass('signcraft.orders') IS NOT NULL AS found`)).toEqual([{ found: true }])
      expect(await runOn(runtime, publicObjects)).toEqual([])
    })
  }
})

describe("the schema name", () => {
  it("is a lower-case SQL identifier PostgreSQL lets anyone create", () => {
    for (const name of ["signcraft", "tenant_42", "_private", "a", "x".repeat(63), "public"]) {
      expect(isDatabaseSchemaName(name), name).toBe(true)
    }
    for (const name of ["", "Signcraft", "42tenant", "sign-craft", "sign craft", "public.x", 'x"; DROP SCHEMA public; --', "x".repeat(64), "pg_signcraft", "information_schema", "signcraft\n"]) {
      expect(isDatabaseSchemaName(name), name).toBe(false)
    }
  })
})

describe("the change signal channels", () => {
  it("are named per schema, within PostgreSQL's limit for a channel name, long schema names too", () => {
    expect(channelIn("signcraft", "signcraft_pricing")).toBe("signcraft_pricing.signcraft")
    const long = ["a", "b"].map((last) => channelIn(`${"x".repeat(62)}${last}`, "signcraft_pricing"))
    for (const channel of long) expect(Buffer.byteLength(channel)).toBeLessThanOrEqual(63)
    expect(long[0]).not.toBe(long[1])
  })
})
