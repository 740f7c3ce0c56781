import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { layerServices } from "../../src/app.js"
import { Credentials } from "../../src/services/credentials/credentials.js"
import { Customisers } from "../../src/services/pricing/customisers.js"
import { Identity } from "../../src/services/credentials/identity.js"
import { layerDatabase } from "../../src/storage/database.js"
import pricingIds from "../../src/storage/migrations/0007_pricing_ids.js"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { defaultSettings, Settings } from "../../src/services/settings.js"

const testSettings = Layer.succeed(Settings, defaultSettings())

// Values newer than this code, as a later release (or older data) could have stored them.
const FUTURE = { pricingModel: "subscription_letter", productFamily: "hologram", selectionMode: "per_letter" }

describe.each(databaseVariants())("customiser storage ($name database)", (variant) => {
  let db: TestDatabase
  let seeded: { readonly customiserId: number; readonly key: string; readonly otherStoreId: number }

  beforeAll(async () => {
    db = await variant.create()
    // Written straight through the services, bypassing the API's write checks.
    const runtime = ManagedRuntime.make(layerServices.pipe(Layer.provide(testSettings), Layer.provideMerge(layerDatabase(db.config))))
    seeded = await runtime.runPromise(
      Effect.gen(function*() {
        const identity = yield* Identity
        const company = yield* identity.createCompany({ name: "Acme" })
        const store = yield* identity.createStore({ companyId: company.id, name: "Shop", platform: "custom", currency: "EUR" })
        const other = yield* identity.createStore({ companyId: company.id, name: "Other", platform: "custom", currency: "EUR" })
        const customisers = yield* Customisers
        const customiser = yield* customisers.create(store.id, { ...FUTURE, name: "Future", active: true }, () =>
          Effect.succeed({
            content: { sizes: [{ name: "Wide", sizing_strategy: "fixed_area", height_measurement_mode: "cap_height" }] },
            legacySpellings: {},
            lastPricingId: 0
          }))
        const key = yield* (yield* Credentials).issue(store.id, "test", {
          _tag: "Scoped",
          scopes: ["customisers:read", "pricing:read", "pricing:write"]
        })
        return { customiserId: customiser.id, key: key.key, otherStoreId: other.id }
      })
    )
    await runtime.dispose()
  })
  afterAll(async () => {
    await db.cleanup()
  })

  it("finds a customiser only in its own Store", async () => {
    const runtime = ManagedRuntime.make(layerServices.pipe(Layer.provide(testSettings), Layer.provideMerge(layerDatabase(db.config))))
    try {
      const outcome = await runtime.runPromise(
        Effect.gen(function*() {
          const customisers = yield* Customisers
          return {
            found: yield* customisers.findAnywhere(seeded.customiserId),
            elsewhere: yield* Effect.flip(customisers.find(seeded.otherStoreId, seeded.customiserId)),
            huge: yield* Effect.flip(customisers.findAnywhere(2 ** 40))
          }
        })
      )
      expect(outcome.found.name).toBe("Future")
      expect(outcome.elsewhere._tag).toBe("NotFound")
      expect(outcome.huge._tag).toBe("NotFound")
    } finally {
      await runtime.dispose()
    }
  })

  it("migration 0007 gives ids to elements stored without a valid one, keeps valid ones and starts the counter after them", async () => {
    const runtime = ManagedRuntime.make(layerServices.pipe(Layer.provide(testSettings), Layer.provideMerge(layerDatabase(db.config))))
    try {
      const stored = await runtime.runPromise(
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const customisers = yield* Customisers
          const { storeId } = yield* customisers.findAnywhere(seeded.customiserId)
          // A document as clients wrote it before ids were the server's: missing, repeated and non-positive ids.
          const legacy = {
            sizes: [{ size_id: 7, name: "Kept" }, { name: "Missing" }, { size_id: 7, name: "Repeated" }],
            price_lists: [{ price_list_id: 0, name: "Zero", rows: [] }]
          }
          const rows = yield* sql<{ id: number }>`
            INSERT INTO customisers (store_id, name, pricing_model, product_family, selection_mode, pricing)
            VALUES (${storeId}, 'Legacy', 'simple_letter', 'neon', 'single_style', ${JSON.stringify(legacy)})
            RETURNING id`
          // Back to the schema before 0007, then 0007 again.
          yield* sql`ALTER TABLE customisers DROP COLUMN pricing_last_id`
          yield* pricingIds
          return yield* customisers.readPricing(storeId, Number(rows[0]?.id))
        })
      )
      expect(stored.content.sizes).toEqual([
        { size_id: 7, name: "Kept" },
        { size_id: 8, name: "Missing" },
        { size_id: 9, name: "Repeated" }
      ])
      expect(stored.content.price_lists).toEqual([{ price_list_id: 10, name: "Zero", rows: [] }])
      expect(stored.lastPricingId).toBe(10)
    } finally {
      await runtime.dispose()
    }
  })

  it("reads tolerate unfamiliar stored values in both generations; writes still refuse them", async () => {
    const app = startApp(db.config)
    try {
      const { customiserId: id, key } = seeded
      const v3 = await app.call("GET", `/api/v3/customisers/${id}`, { key })
      expect(v3.status).toBe(200)
      expect(v3.body.data).toMatchObject({ object: "customiser", pricing_model: FUTURE.pricingModel, product_family: FUTURE.productFamily, selection_mode: FUTURE.selectionMode })

      const v2 = await app.call("GET", `/api/v2/customisers/${id}`, { key })
      expect(v2.status).toBe(200)
      expect(v2.body.customiser).toMatchObject({ price_type: "subscription_letter", product: "hologram", selection_type: "per_letter" })

      const pricingV3 = await app.call("GET", `/api/v3/customisers/${id}/pricing`, { key })
      expect(pricingV3.status).toBe(200)
      expect(pricingV3.body.data.pricing_model).toBe("subscription_letter")
      expect(pricingV3.body.data.currency).toBe("EUR")
      expect(pricingV3.body.data.sizes[0]).toMatchObject({ sizing_strategy: "fixed_area", height_measurement_mode: "cap_height" })

      const pricingV2 = await app.call("GET", `/api/v2/customisers/${id}/pricing`, { key })
      expect(pricingV2.status).toBe(200)
      expect(pricingV2.body.pricing.sizes[0]).toMatchObject({ height_strategy: "fixed_area", height_measurement_mode: "cap_height" })

      const write = await app.call("PUT", `/api/v3/customisers/${id}/pricing`, {
        key,
        body: { sizes: [] },
        headers: { "idempotency-key": "future-1" }
      })
      expect(write.status).toBe(422)
      expect(write.body.code).toBe("invalid_pricing_model")
    } finally {
      await app.dispose()
    }
  })
})
