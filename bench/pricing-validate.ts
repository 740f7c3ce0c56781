/**
 * Pricing validation benchmark: a large v3 document (100 sizes, 20 price lists with one row per
 * size, i.e. 2,000 price-list rows) validated repeatedly; prints mean, p50 and p99 per validation.
 * Target: under 5 ms for the valid document.
 *
 *   node --import tsx bench/pricing-validate.ts
 */
import { loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import { validatePricingV2, validatePricingV3 } from "../packages/core/src/domain/pricing/index.js"
import { appendSummary } from "./summary.js"

const SIZES = 100
const PRICE_LISTS = 20
const WARM_UP = 30
const ITERATIONS = 300

const idsUpTo = (count: number): ReadonlySet<number> => new Set(Array.from({ length: count }, (_, index) => index + 1))

// The document rewrites the stored one with the ids it was read with.
const stored = {
  pricingModel: "simple_letter",
  currency: "GBP",
  customiserId: 1,
  identities: { sizeIds: idsUpTo(SIZES), priceListIds: idsUpTo(PRICE_LISTS) }
}

const size = (index: number) => ({
  size_id: index + 1,
  client_key: `size-${index}`,
  name: `Size ${index}`,
  description: index % 2 === 0 ? null : `Description ${index}`,
  sort_order: index,
  char_limit: 30,
  line_limit: 1 + (index % 10),
  min_char: 1,
  width_cm: 20 + index,
  height_cm: 5 + index / 10,
  line_height_cm: 4.5,
  length_cm: null,
  sizing_strategy: index % 2 === 0 ? "fixed_width" : "fixed_height",
  height_measurement_mode: "line_height",
  width_multiplier: 1.1
})

const priceListRow = (sizeIndex: number, listIndex: number) => ({
  size_id: sizeIndex + 1,
  size_key: `size-${sizeIndex}`,
  base_price: { line_1: 1000 + listIndex, line_2: 1500 + listIndex, line_3: 1900 + listIndex },
  letter_price: { line_1: 120, line_2: 110 },
  price_per_cm: 1.25,
  price_per_letter: 150,
  max_price_multiplier: 3,
  width_limit_cm: 200,
  height_limit_cm: 80,
  length_limit_cm: 500,
  price_per_sq_cm: null,
  fixed_length_cm: 0,
  width_modifier: 1,
  height_modifier: 1,
  length_modifier: null
})

const documentV3 = {
  object: "pricing",
  pricing_model: "simple_letter",
  pricing_model_display_name: "Simple letter",
  currency: "GBP",
  customiser_id: 1,
  sizes: Array.from({ length: SIZES }, (_, index) => size(index)),
  base_pricing: {
    mode: "included_in_price_lists",
    rows: Array.from({ length: SIZES }, (_, index) => ({
      size_id: index + 1,
      size_key: `size-${index}`,
      base_price: { line_1: 900, line_2: 1400 },
      width_limit_cm: 200,
      height_limit_cm: 80,
      length_limit_cm: null
    }))
  },
  price_lists: Array.from({ length: PRICE_LISTS }, (_, listIndex) => ({
    price_list_id: listIndex + 1,
    name: `List ${listIndex}`,
    letter_pricing_method: "fixed_letter",
    shipping: { calculation: "volumetric", volumetric_divisor: 5000, add_weight_to_product: false },
    rows: Array.from({ length: SIZES }, (_, sizeIndex) => priceListRow(sizeIndex, listIndex))
  })),
  sheet_pricing: {
    rows: Array.from({ length: 10 }, (_, index) => ({
      width_limit_cm: 50 * (index + 1),
      height_limit_cm: 30 * (index + 1),
      base_price: 2000 + index * 100,
      price_per_sq_cm: 0.02
    }))
  }
}

// Same document with a fault in every price-list row: measures the error path (2,000 faults).
const faultyV3 = {
  ...documentV3,
  price_lists: documentV3.price_lists.map((list) => ({
    ...list,
    rows: list.rows.map((row) => ({ ...row, price_per_cm: -1 }))
  }))
}

const v2Body = {
  pricing: {
    pricing_model: "FIXED_WIDTH",
    customiser_id: 1,
    sizes: documentV3.sizes.map(({ sizing_strategy, height_measurement_mode, ...rest }) => ({
      ...rest,
      height_strategy: sizing_strategy === "fixed_width" ? "DYNAMIC" : "FIXED",
      height_measurement_mode: height_measurement_mode === "line_height" ? "LINE_HEIGHT" : "LETTER_HEIGHT"
    })),
    base_pricing: documentV3.base_pricing,
    price_lists: documentV3.price_lists.map(({ price_list_id, ...rest }) => ({ pricing_id: price_list_id, ...rest })),
    sheet_pricing: null
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

interface Summary {
  readonly mean: number
  readonly p50: number
  readonly p99: number
  readonly min: number
}

const summarise = (samples: ReadonlyArray<number>): Summary => {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    mean: samples.reduce((sum, value) => sum + value, 0) / samples.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    min: sorted[0] ?? Number.NaN
  }
}

const fmt = ({ mean, p50, p99, min }: Summary): string =>
  `mean ${mean.toFixed(3)}  p50 ${p50.toFixed(3)}  p99 ${p99.toFixed(3)}  min ${min.toFixed(3)}`

// Wall-clock time includes waiting for a CPU on a busy machine; CPU time is what validation itself costs.
const measure = (label: string, run: () => { readonly ok: boolean }, expectOk: boolean): Summary => {
  const first = run()
  if (first.ok !== expectOk) throw new Error(`${label}: expected ok=${expectOk}, got ok=${first.ok}`)
  for (let index = 0; index < WARM_UP; index++) run()
  const wall: Array<number> = []
  const cpu: Array<number> = []
  for (let index = 0; index < ITERATIONS; index++) {
    const wallStart = performance.now()
    const cpuStart = cpuMs()
    run()
    cpu.push(cpuMs() - cpuStart)
    wall.push(performance.now() - wallStart)
  }
  console.log(`${label} (n=${ITERATIONS}, ms per validation)`)
  console.log(`  wall  ${fmt(summarise(wall))}`)
  console.log(`  cpu   ${fmt(summarise(cpu))}`)
  return summarise(cpu)
}

// Timings on a shared machine swing with its load; print it so figures can be read in context.
const [load1 = Number.NaN] = loadavg()
console.log(
  `pricing validation: ${SIZES} sizes, ${PRICE_LISTS} price lists × ${SIZES} rows, node ${process.version}, load ${load1.toFixed(2)}`
)
const validV3 = measure("v3 valid document", () => validatePricingV3(documentV3, stored), true)
measure("v2 valid body", () => validatePricingV2(v2Body, stored), true)
measure("v3 document, 2,000 faults", () => validatePricingV3(faultyV3, stored), false)
appendSummary([
  `| pricing validation (${SIZES} sizes × ${PRICE_LISTS} price lists) | CPU p50 ms | CPU p99 ms | target | verdict |`,
  "|---|---:|---:|---:|---|",
  `| v3 valid document | ${validV3.p50.toFixed(2)} | ${validV3.p99.toFixed(2)} | < 5 ms | ${validV3.p50 < 5 ? "PASS" : "BELOW"} |`
].join("\n"))
