import { type FieldError, orders, pricing } from "@signcraft/core/domain"
import { Result } from "effect"
import { readdir, readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import type { CommandContext } from "./context.js"

/** The input formats `migrate translate --from` accepts. */
export const TRANSLATE_SOURCES = ["v2-order", "legacy-order", "legacy-product", "v2-pricing"] as const

/** One input format. */
export type TranslateSource = (typeof TRANSLATE_SOURCES)[number]

/** The v3 request a previous-generation body becomes. */
export interface TranslatedRequest {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

// Values the input does not carry and the command cannot know stay visible placeholders,
// like the `{customiser_id}` path parameter, for the integrator to fill in.
const placeholder = (name: string) => `{${name}}`

// The translators take numeric product ids; the command keeps the integrator's references
// instead (they are only known once looked up), so each reference gets a stand-in index
// that is swapped back after translation.
const keepReferences = () => {
  const references: Array<string> = []
  const resolve = (reference: string): number => {
    const known = references.indexOf(reference)
    if (known >= 0) return known
    references.push(reference)
    return references.length - 1
  }
  const restore = (order: orders.V3OrderRequest) => ({
    ...order,
    line_items: (order.line_items ?? []).map((item) => ({ ...item, product_id: references[item.product_id] }))
  })
  return { resolve, restore }
}

const decodeV2Order = orders.decodeRequest(orders.V2OrderRequest)
const decodeLegacyOrder = orders.decodeRequest(orders.LegacyOrderRequest)
const decodeLegacyProduct = orders.decodeRequest(orders.LegacyProductSyncRequest)
const decodeV2Pricing = orders.decodeRequest(pricing.PricingWriteDocumentV2)

const withPrefix = (prefix: string, faults: ReadonlyArray<FieldError>): ReadonlyArray<FieldError> =>
  faults.map((fault) => ({ ...fault, pointer: `${prefix}${fault.pointer ?? ""}` }))

// v3 pricing header members are read-only (answers, or guards the command cannot fill in).
const V3_PRICING_HEADER = ["object", "pricing_model", "pricing_model_display_name", "currency", "customiser_id"] as const

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Translates one previous-generation body with the exported translators, or the faults that stop it. */
export const translateBody = (
  source: TranslateSource,
  input: unknown,
  options: { readonly integrationId?: number } = {}
): Result.Result<TranslatedRequest, ReadonlyArray<FieldError>> => {
  const integrationId = options.integrationId
  switch (source) {
    case "v2-order": {
      const references = keepReferences()
      return Result.flatMap(decodeV2Order(input), (request) =>
        Result.map(orders.v2OrderToV3(request, { resolveProductId: references.resolve }), (order) => ({
          method: "POST",
          path: "/api/v3/orders",
          body: references.restore(order)
        })))
    }
    case "legacy-order": {
      const references = keepReferences()
      return Result.flatMap(decodeLegacyOrder(input), (request) =>
        Result.map(
          orders.legacyOrderToV3(request, { integrationId: integrationId ?? 0, resolveProductId: references.resolve }),
          (order) => ({
            method: "POST",
            path: "/api/v3/orders",
            body: { ...references.restore(order), integration_id: integrationId ?? placeholder("integration_id") }
          })
        ))
    }
    case "legacy-product":
      return Result.flatMap(decodeLegacyProduct(input), (request) =>
        Result.map(
          orders.legacyProductToV3(request, { integrationId: integrationId ?? 0, title: "", priceAmount: 0, currency: "" }),
          (product) => ({
            method: "POST",
            path: `/api/v3/customisers/${placeholder("customiser_id")}/products`,
            // The sync body has no title, price or currency (its price_breakdown has no documented shape).
            body: {
              ...product,
              integration_id: integrationId ?? placeholder("integration_id"),
              title: placeholder("title"),
              price_amount: placeholder("price_amount"),
              currency: placeholder("currency")
            }
          })
        ))
    case "v2-pricing": {
      // The v2 PUT body wraps the document in `pricing`; a bare document is accepted too.
      const wrapped = isRecord(input) && isRecord(input.pricing) && !("sizes" in input)
      const decoded = decodeV2Pricing(wrapped ? input.pricing : input)
      if (Result.isFailure(decoded)) return Result.fail(wrapped ? withPrefix("/pricing", decoded.failure) : decoded.failure)
      const { document } = pricing.pricingV2ToV3(decoded.success, { pricingModel: "", currency: "", customiserId: 0 })
      const body: Record<string, unknown> = { ...document }
      for (const member of V3_PRICING_HEADER) delete body[member]
      return Result.succeed({ method: "PUT", path: `/api/v3/customisers/${placeholder("customiser_id")}/pricing`, body })
    }
  }
}

// A directory stands for the `.json` files directly in it, in name order.
const expand = async (path: string): Promise<{ readonly files: ReadonlyArray<string>; readonly directory: boolean }> => {
  const info = await stat(path)
  if (!info.isDirectory()) return { files: [path], directory: false }
  const names = (await readdir(path)).filter((name) => name.endsWith(".json")).sort()
  return { files: names.map((name) => join(path, name)), directory: true }
}

const describeFault = (fault: FieldError): string =>
  `${fault.pointer ?? fault.parameter ?? ""}: ${fault.detail ?? fault.code}`.replace(/^: /, "")

/**
 * `signcraft migrate translate`: prints, one JSON line per input file, the v3 request the
 * documented translation rules give (the exported translators). Exit 0, or 1 when any file is unreadable or invalid (each
 * named on stderr with the offending field); the other files are still translated.
 */
export const runMigrateTranslate = async (
  options: { readonly source: TranslateSource; readonly paths: ReadonlyArray<string>; readonly integrationId?: number },
  context: CommandContext
): Promise<number> => {
  let failed = false
  for (const path of options.paths) {
    let expanded: Awaited<ReturnType<typeof expand>>
    try {
      expanded = await expand(path)
    } catch (error) {
      context.err(`${path}: cannot read: ${error instanceof Error ? error.message : String(error)}`)
      failed = true
      continue
    }
    for (const [index, file] of expanded.files.entries()) {
      if (expanded.directory) context.err(`[${index + 1}/${expanded.files.length}] ${file}`)
      let input: unknown
      try {
        input = JSON.parse(await readFile(file, "utf8"))
      } catch (error) {
        context.err(`${file}: cannot read: ${error instanceof Error ? error.message : String(error)}`)
        failed = true
        continue
      }
      const translated = translateBody(options.source, input, options.integrationId === undefined ? {} : { integrationId: options.integrationId })
      if (Result.isFailure(translated)) {
        for (const fault of translated.failure) context.err(`${file}: ${describeFault(fault)}`)
        failed = true
        continue
      }
      context.out(JSON.stringify({ file, ...translated.success }))
    }
  }
  return failed ? 1 : 0
}
