import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runMigrateTranslate, type TranslateSource } from "../../src/commands/migrate-translate.js"
import { capture } from "./support.js"

const dir = mkdtempSync(join(tmpdir(), "signcraft-translate-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const file = (name: string, content: unknown) => {
  const path = join(dir, name)
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content))
  return path
}

const translate = async (source: TranslateSource, paths: ReadonlyArray<string>, integrationId?: number) => {
  const run = capture()
  const code = await runMigrateTranslate({ source, paths, ...(integrationId === undefined ? {} : { integrationId }) }, run.context)
  return { code, out: run.out.map((line) => JSON.parse(line)), err: run.err }
}

const v2Order = {
  integration_id: 7,
  external_id: "ORD-1",
  external_order_number: "#1001",
  currency: "usd",
  shipping_line: "Express",
  customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: null },
  products: [
    { external_id: "ext-a", quantity: 2, price: 1500 },
    { external_id: "ext-b", quantity: 1, price: 900 },
    { external_id: "ext-a", quantity: 1, price: 1500 }
  ]
}

describe("signcraft migrate translate", () => {
  it("prints a v2 order as the v3 order write, keeping the integrator's product references", async () => {
    const path = file("v2-order.json", v2Order)
    const result = await translate("v2-order", [path])
    expect(result.code).toBe(0)
    expect(result.err).toEqual([])
    expect(result.out).toEqual([{
      file: path,
      method: "POST",
      path: "/api/v3/orders",
      body: {
        integration_id: 7,
        store_order_id: "ORD-1",
        store_order_number: "#1001",
        total_amount: 5400,
        currency: "USD",
        shipping_method: "Express",
        customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: null },
        line_items: [
          { product_id: "ext-a", quantity: 2 },
          { product_id: "ext-b", quantity: 1 },
          { product_id: "ext-a", quantity: 1 }
        ]
      }
    }])
  })

  it("prints a legacy order with minor units, split names and renamed address fields", async () => {
    const path = file("legacy-order.json", {
      order_id: "L-9",
      order_number: "9",
      order_total: 12.5,
      order_currency: "EUR",
      email: "bo@example.com",
      products: ["p1", "p1", "p2"],
      shipping_address: { name: "Bo Diddley", address1: "1 Main St", address2: null, zip: "12345", city: "X", country: "DE" }
    })
    const placeholder = await translate("legacy-order", [path])
    expect(placeholder.out[0]).toMatchObject({
      method: "POST",
      path: "/api/v3/orders",
      body: {
        integration_id: "{integration_id}",
        store_order_id: "L-9",
        store_order_number: "9",
        total_amount: 1250,
        currency: "EUR",
        customer: { email: "bo@example.com" },
        shipping_address: { first_name: "Bo", last_name: "Diddley", address_1: "1 Main St", postcode: "12345", city: "X", country: "DE" },
        line_items: [{ product_id: "p1", quantity: 2 }, { product_id: "p2", quantity: 1 }]
      }
    })
    const given = await translate("legacy-order", [path], 3)
    expect(given.out[0].body.integration_id).toBe(3)
  })

  it("prints a legacy product sync as the v3 product write, with placeholders for what it does not carry", async () => {
    const path = file("legacy-product.json", {
      product_id: "SKU-1",
      cart: { text: { label: "Text", value: "Open" } },
      price_breakdown: {},
      custom_background_path: "https://cdn.example/bg.png",
      logo_original_path: "https://cdn.example/logo.svg"
    })
    const result = await translate("legacy-product", [path])
    expect(result.code).toBe(0)
    expect(result.out[0]).toMatchObject({
      method: "POST",
      path: "/api/v3/customisers/{customiser_id}/products",
      body: {
        integration_id: "{integration_id}",
        store_product_id: "SKU-1",
        title: "{title}",
        price_amount: "{price_amount}",
        currency: "{currency}",
        artwork: { custom_background_url: "https://cdn.example/bg.png", source_file_url: "https://cdn.example/logo.svg" }
      }
    })
    expect(Array.isArray(result.out[0].body.customisations)).toBe(true)
  })

  it("prints v2 pricing, wrapped in `pricing` or bare, as the v3 PUT with renamed members", async () => {
    const document = {
      sizes: [{ pricing_id: undefined, name: "Small", height_strategy: "HEIGHT", height_measurement_mode: "LINE_HEIGHT" }],
      base_pricing: { mode: "included_in_price_lists", rows: [] },
      price_lists: [{ pricing_id: 4, name: "Standard", rows: [] }],
      sheet_pricing: { pricings: [{ cmLimitWidth: 10, cmLimitHeight: 20, basePrice: 100, pricePerSqCm: 0.5 }] }
    }
    const wrapped = file("pricing-wrapped.json", { pricing: document })
    const bare = file("pricing-bare.json", document)
    const result = await translate("v2-pricing", [wrapped, bare])
    expect(result.code).toBe(0)
    const expected = {
      method: "PUT",
      path: "/api/v3/customisers/{customiser_id}/pricing",
      body: {
        sizes: [{ name: "Small", sizing_strategy: "fixed_height", height_measurement_mode: "line_height" }],
        base_pricing: { mode: "included_in_price_lists", rows: [] },
        price_lists: [{ price_list_id: 4, name: "Standard", rows: [] }],
        sheet_pricing: { rows: [{ width_limit_cm: 10, height_limit_cm: 20, base_price: 100, price_per_sq_cm: 0.5 }] }
      }
    }
    expect(result.out).toEqual([{ file: wrapped, ...expected }, { file: bare, ...expected }])
  })

  it("exits 1 naming the file and the field of a missing required field, and still translates the other files", async () => {
    const { external_id: _, ...missing } = v2Order
    const bad = file("missing.json", missing)
    const wrappedBad = file("pricing-missing.json", { pricing: { sizes: [], price_lists: [] } })
    const good = file("good.json", v2Order)
    const result = await translate("v2-order", [bad, good])
    expect(result.code).toBe(1)
    expect(result.out.map((line) => line.file)).toEqual([good])
    expect(result.err).toEqual([`${bad}: /external_id: This field is required.`])
    const pricing = await translate("v2-pricing", [wrappedBad])
    expect(pricing.code).toBe(1)
    expect(pricing.err).toEqual([`${wrappedBad}: /pricing/base_pricing: This field is required.`])
  })

  it("exits 1 naming the file when it cannot be read or is not JSON", async () => {
    const notJson = file("broken.json", "{ nope")
    const absent = join(dir, "absent.json")
    const result = await translate("v2-order", [notJson, absent])
    expect(result.code).toBe(1)
    expect(result.err).toHaveLength(2)
    expect(result.err[0]).toMatch(new RegExp(`^${notJson}: cannot read: `))
    expect(result.err[1]).toMatch(new RegExp(`^${absent}: cannot read: `))
  })

  it("translates every .json file of a directory in name order, with a progress line on stderr", async () => {
    const folder = join(dir, "batch")
    mkdirSync(folder)
    writeFileSync(join(folder, "b.json"), JSON.stringify({ ...v2Order, external_id: "B" }))
    writeFileSync(join(folder, "a.json"), JSON.stringify({ ...v2Order, external_id: "A" }))
    writeFileSync(join(folder, "notes.txt"), "ignored")
    const result = await translate("v2-order", [folder])
    expect(result.code).toBe(0)
    expect(result.out.map((line) => line.body.store_order_id)).toEqual(["A", "B"])
    expect(result.err).toEqual([`[1/2] ${join(folder, "a.json")}`, `[2/2] ${join(folder, "b.json")}`])
  })
})
