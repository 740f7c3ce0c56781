import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { NotFound } from "../domain/errors.js"
import type { LegacySpellings } from "../domain/pricing/legacy-spellings.js"
import { type PricingContent, EMPTY_PRICING_CONTENT } from "../domain/pricing/content.js"
import { isStorableId, jsonColumn, singleRow } from "../storage/rows.js"

/** A customiser as stored: canonical spellings (or whatever older data holds), UTC timestamps with microseconds. */
export interface CustomiserRecord {
  readonly id: number
  readonly store_id: number
  readonly name: string
  readonly pricing_model: string
  readonly product_family: string
  readonly selection_mode: string
  readonly active: boolean
  readonly created_at: string
  readonly updated_at: string
}

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

/** The fields of a new customiser. */
export interface NewCustomiser {
  readonly name: string
  readonly pricing_model: string
  readonly product_family: string
  readonly selection_mode: string
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

interface CustomiserRow extends Omit<CustomiserRecord, "id" | "store_id"> {
  readonly id: number | string
  readonly store_id: number | string
}

interface PricingRow extends CustomiserRow {
  readonly currency: string
  readonly pricing: PricingContent | string
  readonly legacy_spellings: LegacySpellings | string
  readonly pricing_last_id: number | string
}

const toRecord = (row: CustomiserRow): CustomiserRecord => ({
  id: Number(row.id),
  store_id: Number(row.store_id),
  name: row.name,
  pricing_model: row.pricing_model,
  product_family: row.product_family,
  selection_mode: row.selection_mode,
  active: row.active,
  created_at: row.created_at,
  updated_at: row.updated_at
})

const toStoredPricing = (row: PricingRow): StoredPricing => ({
  customiser: toRecord(row),
  currency: row.currency,
  content: jsonColumn(row.pricing),
  legacySpellings: jsonColumn(row.legacy_spellings),
  lastPricingId: Number(row.pricing_last_id)
})

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
  /** A customiser by id alone, for the public storefront; its `store_id` names the owner. */
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
      // Microseconds survive as text; a JavaScript Date would cut them to milliseconds.
      const columns = sql.unsafe(`
        c.id, c.store_id, c.name, c.pricing_model, c.product_family, c.selection_mode, c.active,
        to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
        to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at`)

      const selectPricing = (storeId: number, customiserId: number, lock: boolean) =>
        !isStorableId(customiserId) ? Effect.fail(notFound) : sql<PricingRow>`
          SELECT ${columns}, s.currency, c.pricing, c.legacy_spellings, c.pricing_last_id
          FROM customisers c JOIN stores s ON s.id = c.store_id
          WHERE c.id = ${customiserId} AND c.store_id = ${storeId}
          ${lock ? sql`FOR UPDATE OF c` : sql``}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) =>
            Option.match(Option.fromNullishOr(rows[0]), {
              onNone: () => Effect.fail(notFound),
              onSome: (row) => Effect.succeed(toStoredPricing(row))
            })
          )
        )

      const storePricing = (customiserId: number, replacement: PricingReplacement) =>
        sql`
          UPDATE customisers SET
            pricing = ${JSON.stringify(replacement.content)},
            legacy_spellings = ${JSON.stringify(replacement.legacySpellings)},
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
            return yield* selectPricing(storeId, customiserId, false)
          })
        ).pipe(Effect.catchTag("SqlError", Effect.die))

      // `storeId` undefined: any Store (the public storefront resolves the owner from the customiser).
      const findWhere = (customiserId: number, storeId: number | undefined) =>
        !isStorableId(customiserId) ? Effect.fail(notFound) : sql<CustomiserRow>`
          SELECT ${columns} FROM customisers c
          WHERE c.id = ${customiserId} ${storeId === undefined ? sql`` : sql`AND c.store_id = ${storeId}`}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) =>
            Option.match(Option.fromNullishOr(rows[0]), {
              onNone: () => Effect.fail(notFound),
              onSome: (row) => Effect.succeed(toRecord(row))
            })
          )
        )

      return Customisers.of({
        create: <E = never>(storeId: number, fields: NewCustomiser, initialPricing?: PricingDecision<E>) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const rows = yield* sql<{ id: number | string }>`
                INSERT INTO customisers ${sql.insert({
                  store_id: storeId,
                  ...fields,
                  pricing: JSON.stringify(EMPTY_PRICING_CONTENT)
                })}
                RETURNING id`
              const id = Number((yield* singleRow(rows)).id)
              if (initialPricing !== undefined) {
                const current = yield* selectPricing(storeId, id, true).pipe(Effect.orDie)
                yield* storePricing(id, yield* initialPricing(current))
              }
              return yield* findWhere(id, storeId).pipe(Effect.orDie)
            })
          ).pipe(Effect.catchTag("SqlError", Effect.die)),
        list: (storeId, { limit, afterId }) =>
          sql<CustomiserRow>`
            SELECT ${columns} FROM customisers c
            WHERE c.store_id = ${storeId} ${afterId === undefined ? sql`` : sql`AND c.id > ${afterId}`}
            ORDER BY c.id LIMIT ${limit}`.pipe(
            Effect.map((rows) => rows.map(toRecord)),
            Effect.orDie
          ),
        find: (storeId, customiserId) => findWhere(customiserId, storeId),
        findAnywhere: (customiserId) => findWhere(customiserId, undefined),
        readPricing: (storeId, customiserId) => selectPricing(storeId, customiserId, false),
        writePricing
      })
    })
  )
}
