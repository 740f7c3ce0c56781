import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { NotFound } from "../../domain/errors.js"
import { PricingCache } from "./cache.js"
import type { LegacySpellings } from "../../domain/pricing/legacy-spellings.js"
import { type PricingContent, EMPTY_PRICING_CONTENT } from "../../domain/pricing/content.js"
import {
  decodeFirstRow,
  decodeRows,
  decodeSingleRow,
  InsertedId,
  isStorableId,
  JsonColumn,
  jsonParam,
  RowId,
  RowNumber,
  StoredDocument
} from "../../storage/rows.js"
import { snakeStruct } from "../../storage/table.js"
import type { CustomiserRecord } from "../../domain/pricing/customiser-record.js"

export type { CustomiserRecord } from "../../domain/pricing/customiser-record.js"

/** A customiser's pricing as stored, with what its v3 header is derived from. */
export interface StoredPricing {
  readonly customiser: CustomiserRecord
  /** The Store's currency: the document's `currency`. */
  readonly currency: string
  readonly content: PricingContent
  readonly legacySpellings: LegacySpellings
  /** The last id the customiser's pricing-id counter gave out. */
  readonly lastPricingId: number
}

const PricingDocument = StoredDocument<PricingContent>()
const PricingColumn = JsonColumn(PricingDocument)
const LegacySpellingsDocument = StoredDocument<LegacySpellings>()
const LegacySpellingsColumn = JsonColumn(LegacySpellingsDocument)

/** The fields of a new customiser. */
export interface NewCustomiser {
  readonly name: string
  readonly pricingModel: string
  readonly productFamily: string
  readonly selectionMode: string
  readonly active: boolean
}

/**
 * What a pricing write stores: the document content, the legacy spellings to keep beside it and
 * the id counter after the ids the write drew.
 */
export interface PricingReplacement {
  readonly content: PricingContent
  readonly legacySpellings: LegacySpellings
  readonly lastPricingId: number
}

/**
 * Decides a pricing write from the stored pricing (read under a row lock, so concurrent PATCHes
 * never lose each other's changes and concurrent writes never draw the same pricing id) or
 * refuses it.
 */
export type PricingDecision<E> = (current: StoredPricing) => Effect.Effect<PricingReplacement, E>

const customiserFields = {
  id: RowId,
  storeId: RowId,
  name: Schema.String,
  pricingModel: Schema.String,
  productFamily: Schema.String,
  selectionMode: Schema.String,
  active: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String
}

const CustomiserRow = snakeStruct(customiserFields)

const PricingRow = snakeStruct({
  ...customiserFields,
  currency: Schema.String,
  pricing: PricingColumn,
  legacySpellings: LegacySpellingsColumn,
  pricingLastId: RowNumber
})

const toStoredPricing = (row: typeof PricingRow.Type): StoredPricing => {
  const { currency, pricing, legacySpellings, pricingLastId, ...customiser } = row
  return { customiser, currency, content: pricing, legacySpellings, lastPricingId: pricingLastId }
}

const firstCustomiser = decodeFirstRow(CustomiserRow)
const firstPricing = decodeFirstRow(PricingRow)

const notFound = new NotFound({ resource: "customiser" })

/** Customisers and their pricing documents, always confined to one Store. */
export class Customisers extends Context.Service<Customisers, {
  /** Creates a customiser; `initialPricing` may refuse (and roll back) once the new id is known. */
  readonly create: <E = never>(
    storeId: number,
    fields: NewCustomiser,
    initialPricing?: PricingDecision<E>
  ) => Effect.Effect<CustomiserRecord, E>
  /** One page of a Store's customisers in id order, after `afterId`; fetches `limit` rows. */
  readonly list: (
    storeId: number,
    page: { readonly limit: number; readonly afterId: number | undefined }
  ) => Effect.Effect<ReadonlyArray<CustomiserRecord>>
  /** A customiser of the Store, or NotFound (also for another Store's customiser). */
  readonly find: (storeId: number, customiserId: number) => Effect.Effect<CustomiserRecord, NotFound>
  /** A customiser by id alone, for the public storefront; its `storeId` names the owner. */
  readonly findAnywhere: (customiserId: number) => Effect.Effect<CustomiserRecord, NotFound>
  readonly readPricing: (storeId: number, customiserId: number) => Effect.Effect<StoredPricing, NotFound>
  /** Replaces the pricing document atomically with what `decide` makes of the current one. */
  readonly writePricing: <E>(
    storeId: number,
    customiserId: number,
    decide: PricingDecision<E>
  ) => Effect.Effect<StoredPricing, E | NotFound>
}>()("signcraft/Customisers") {
  static readonly layer = Layer.effect(
    Customisers,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pricingCache = yield* PricingCache
      // Microseconds survive as text; a JavaScript Date would cut them to milliseconds.
      const columns = sql.unsafe(`
        c.id, c.store_id, c.name, c.pricing_model, c.product_family, c.selection_mode, c.active,
        to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
        to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at`)

      const selectPricing = (storeId: number, customiserId: number, lock: boolean) =>
        !isStorableId(customiserId) ? Effect.fail(notFound) : sql`
          SELECT ${columns}, s.currency, c.pricing, c.legacy_spellings, c.pricing_last_id
          FROM customisers c JOIN stores s ON s.id = c.store_id
          WHERE c.id = ${customiserId} AND c.store_id = ${storeId}
          ${lock ? sql`FOR UPDATE OF c` : sql``}`.pipe(
          Effect.orDie,
          Effect.flatMap(firstPricing),
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(notFound),
            onSome: (row) => Effect.succeed(toStoredPricing(row))
          }))
        )

      const storePricing = (customiserId: number, replacement: PricingReplacement) =>
        sql`
          UPDATE customisers SET
            pricing = ${jsonParam(PricingDocument, replacement.content)},
            legacy_spellings = ${jsonParam(LegacySpellingsDocument, replacement.legacySpellings)},
            pricing_last_id = ${replacement.lastPricingId},
            pricing_revision = pricing_revision + 1,
            updated_at = now()
          WHERE id = ${customiserId}`.pipe(Effect.orDie)

      const writePricing = <E>(storeId: number, customiserId: number, decide: PricingDecision<E>) =>
        sql.withTransaction(
          Effect.gen(function*() {
            const current = yield* selectPricing(storeId, customiserId, true)
            const replacement = yield* decide(current)
            yield* storePricing(customiserId, replacement)
            yield* pricingCache.announce(customiserId)
            return yield* selectPricing(storeId, customiserId, false)
          })
        ).pipe(
          Effect.catchTag("SqlError", Effect.die),
          // After the commit: a read that raced the write cannot cache what it replaced.
          Effect.ensuring(Effect.sync(() => pricingCache.forget(customiserId)))
        )

      // `storeId` undefined: any Store (the public storefront resolves the owner from the customiser).
      const findWhere = (customiserId: number, storeId: number | undefined) =>
        !isStorableId(customiserId) ? Effect.fail(notFound) : sql`
          SELECT ${columns} FROM customisers c
          WHERE c.id = ${customiserId} ${storeId === undefined ? sql`` : sql`AND c.store_id = ${storeId}`}`.pipe(
          Effect.orDie,
          Effect.flatMap(firstCustomiser),
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound), onSome: Effect.succeed }))
        )

      return Customisers.of({
        create: <E = never>(storeId: number, fields: NewCustomiser, initialPricing?: PricingDecision<E>) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const rows = yield* sql`
                INSERT INTO customisers ${sql.insert({
                  store_id: storeId,
                  name: fields.name,
                  pricing_model: fields.pricingModel,
                  product_family: fields.productFamily,
                  selection_mode: fields.selectionMode,
                  active: fields.active,
                  pricing: jsonParam(PricingDocument, EMPTY_PRICING_CONTENT)
                })}
                RETURNING id`
              const { id } = yield* decodeSingleRow(InsertedId)(rows)
              if (initialPricing !== undefined) {
                const current = yield* selectPricing(storeId, id, true).pipe(Effect.orDie)
                yield* storePricing(id, yield* initialPricing(current))
              }
              return yield* findWhere(id, storeId).pipe(Effect.orDie)
            })
          ).pipe(Effect.catchTag("SqlError", Effect.die)),
        list: (storeId, { limit, afterId }) =>
          sql`
            SELECT ${columns} FROM customisers c
            WHERE c.store_id = ${storeId} ${afterId === undefined ? sql`` : sql`AND c.id > ${afterId}`}
            ORDER BY c.id LIMIT ${limit}`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeRows(CustomiserRow))
          ),
        find: (storeId, customiserId) => findWhere(customiserId, storeId),
        findAnywhere: (customiserId) => findWhere(customiserId, undefined),
        readPricing: (storeId, customiserId) => selectPricing(storeId, customiserId, false),
        writePricing
      })
    })
  )
}
