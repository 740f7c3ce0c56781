import { minorUnitExponent } from "../../domain/currency.js"
import type { PricingContent } from "../../domain/pricing/content.js"
import { pricingModelDisplayName } from "../../domain/pricing/model.js"
import type { CustomiserRecord } from "../../domain/pricing/customiser-record.js"
import { readableMoney } from "./money.js"

/** One price list as a table: column names, then one row of readable cells per size. */
export interface PriceTableView {
  readonly name: string
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<ReadonlyArray<string>>
}

/** A customiser's pricing as the dashboard shows it, read-only. */
export interface CustomiserPricingView {
  readonly name: string
  readonly model: string
  readonly active: boolean
  readonly sizes: ReadonlyArray<{ readonly name: string; readonly dimensions: string; readonly limits: string }>
  readonly priceLists: ReadonlyArray<PriceTableView>
}

type Amount = number | Readonly<Record<string, number>> | null | undefined

// `line_1` reads as "Line 1".
const lineName = (key: string): string => key.replace(/^line_(\d+)$/, "Line $1").replace(/_/g, " ")

// Money amounts are minor units: one, or one per line of text.
const money = (amount: Amount, currency: string): string =>
  amount === null || amount === undefined
    ? ""
    : typeof amount === "number"
    ? readableMoney(amount, currency)
    : Object.entries(amount).map(([line, value]) => `${lineName(line)}: ${readableMoney(value, currency)}`).join("; ")

// Rates per centimetre are decimals in major units.
const rate = (value: number | null | undefined, currency: string, unit: string): string => {
  if (value === null || value === undefined) return ""
  const exponent = minorUnitExponent(currency) ?? 2
  return `${new Intl.NumberFormat("en", { style: "currency", currency, minimumFractionDigits: exponent, maximumFractionDigits: Math.max(exponent, 4) }).format(value)} ${unit}`
}

const centimetres = (...values: ReadonlyArray<number | null | undefined>): string =>
  values.some((v) => v !== null && v !== undefined) ? `${values.map((v) => (v === null || v === undefined ? "–" : String(v))).join(" × ")} cm` : ""

/**
 * A customiser's pricing document as readable tables in the Store's currency: its sizes, and each
 * price list with one row per size, keeping only the columns the list uses.
 */
export const customiserPricingView = (customiser: CustomiserRecord, content: PricingContent, currency: string): CustomiserPricingView => {
  const sizes = content.sizes ?? []
  const sizeName = (id: number | null | undefined, key: string | null | undefined): string =>
    sizes.find((s) => (id !== null && id !== undefined && s.size_id === id) || (key !== null && key !== undefined && s.client_key === key))?.name ??
      key ?? (id === null || id === undefined ? "Any size" : `Size ${id}`)
  const candidates = [
    { column: "Base price", cell: (r: PriceRow) => money(r.base_price, currency) },
    { column: "Letter price", cell: (r: PriceRow) => money(r.letter_price, currency) },
    { column: "Per letter", cell: (r: PriceRow) => money(r.price_per_letter, currency) },
    { column: "Per cm", cell: (r: PriceRow) => rate(r.price_per_cm, currency, "/ cm") },
    { column: "Per cm²", cell: (r: PriceRow) => rate(r.price_per_sq_cm, currency, "/ cm²") },
    { column: "Up to", cell: (r: PriceRow) => centimetres(r.width_limit_cm, r.height_limit_cm) }
  ]
  return {
    name: customiser.name,
    model: pricingModelDisplayName(customiser.pricingModel),
    active: customiser.active,
    sizes: sizes.map((s) => ({
      name: s.name,
      dimensions: centimetres(s.width_cm, s.height_cm),
      limits: [s.char_limit == null ? "" : `${s.char_limit} characters`, s.line_limit == null ? "" : `${s.line_limit} lines`].filter((t) => t !== "").join(", ")
    })),
    priceLists: (content.price_lists ?? []).map((list) => {
      const used = candidates.filter((c) => list.rows.some((row) => c.cell(row) !== ""))
      return {
        name: list.name,
        columns: ["Size", ...used.map((c) => c.column)],
        rows: list.rows.map((row) => [sizeName(row.size_id, row.size_key), ...used.map((c) => c.cell(row))])
      }
    })
  }
}

type PriceRow = NonNullable<PricingContent["price_lists"]>[number]["rows"][number]
