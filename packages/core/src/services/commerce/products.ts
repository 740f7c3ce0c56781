import { Context, Effect, Layer, Option, Schema } from "effect"
import { NotFound } from "../../domain/errors.js"
import { SqlClient } from "effect/sql"
import type { ProductRecord, UploadRecord } from "../../domain/orders/webhook-payloads.js"
import type { NewProduct, ProductDetails, StoredProduct } from "../../domain/orders/stored-product.js"
import {
  decodeFirstRow,
  decodeRows,
  decodeSingleRow,
  isStorableId,
  jsonParam,
  RowId,
  RowNumber,
  RowTimestamp,
  StoredDocument
} from "../../storage/rows.js"
import { column, jsonColumn, snakeStruct, table } from "../../storage/table.js"

/** One historical product of an operator import. */
export interface ImportedProduct {
  readonly createdAt: Date
  readonly title: string
  readonly priceAmount: number
  readonly currency: string
  readonly legacy: boolean
}

const DetailsDocument = StoredDocument<ProductDetails>()

const productsTable = table("products", {
  id: column(RowId, "integer"),
  storeId: column(RowId, "integer"),
  kind: column(Schema.Literals(["product", "design", "legacy"]), "text"),
  customiserId: column(Schema.NullOr(RowId), "integer"),
  integrationId: column(Schema.NullOr(RowId), "integer"),
  storeProductId: column(Schema.NullOr(Schema.String), "text"),
  externalId: column(Schema.NullOr(Schema.String), "text"),
  title: column(Schema.String, "text"),
  description: column(Schema.NullOr(Schema.String), "text"),
  priceAmount: column(RowNumber, "bigint"),
  comparePrice: column(Schema.NullOr(RowNumber), "bigint"),
  currency: column(Schema.String, "text"),
  details: jsonColumn(DetailsDocument),
  createdAt: column(RowTimestamp, "timestamptz"),
  updatedAt: column(RowTimestamp, "timestamptz")
})
const ProductRow = productsTable.row

const toStored = decodeSingleRow(ProductRow)

/** The column list a product row is selected with, each qualified by `alias` when given. */
export const productColumns = (alias?: string): string =>
  alias === undefined ? productsTable.columns : productsTable.columnsOf(alias)

/** Decodes product rows selected with {@link productColumns} (other columns are ignored). */
export const decodeProducts = decodeRows(ProductRow)
const firstStored = decodeFirstRow(ProductRow)

const ReferenceRow = snakeStruct({
  id: RowId,
  externalId: Schema.NullOr(Schema.String),
  storeProductId: Schema.NullOr(Schema.String),
  kind: Schema.String
})
const toReferences = decodeRows(ReferenceRow)

const DesignReferenceRow = snakeStruct({ id: RowId, externalId: Schema.String })

const productParams = (storeId: number, product: NewProduct) => productsTable.toParams({ storeId, ...product })

const uploadPath = (url: string): string => (URL.canParse(url) ? new URL(url).pathname : url)

/** A stored product as the webhook payload builders see it. */
export const toProductRecord = (product: StoredProduct): ProductRecord => {
  const image = product.details.product_image_url ?? product.details.artwork?.preview_image_url ?? ""
  const uploads: ReadonlyArray<UploadRecord> = image === ""
    ? []
    : [{ url: image, type: "product_image", path: uploadPath(image) }]
  return {
    id: product.id,
    title: product.title,
    description: product.description,
    descriptionHtml: product.details.description_html ?? null,
    externalId: product.externalId,
    externalData: {},
    price: product.priceAmount,
    comparePrice: product.comparePrice,
    customiserId: product.customiserId ?? 0,
    logoUploadId: null,
    productImageUrl: image,
    uploads,
    createdAt: product.createdAt,
    updatedAt: product.updatedAt
  }
}

const IMPORT_BATCH = 1000

/** Products of every generation, always confined to one Store. */
export class Products extends Context.Service<Products, {
  /** Inserts a product; runs in the caller's transaction when there is one. */
  readonly create: (storeId: number, product: NewProduct) => Effect.Effect<StoredProduct>
  /**
   * One product or design of the Store, as v3 reads it; legacy product-cache rows, another
   * Store's products and missing ones are all simply not found.
   */
  readonly findModern: (storeId: number, productId: number) => Effect.Effect<StoredProduct, NotFound>
  /**
   * The unversioned product sync: replaces the Store's legacy cache row with the same
   * `store_product_id`, or inserts one.
   */
  readonly syncLegacy: (storeId: number, product: NewProduct) => Effect.Effect<StoredProduct>
  /** Records the `external_id` the integrator answered for a design. */
  readonly setExternalId: (productId: number, externalId: string) => Effect.Effect<StoredProduct>
  /** Design ids by the `external_id` returned for their `product:created`; the newest wins a tie. */
  readonly designsByExternalId: (storeId: number, externalIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, number>>
  /**
   * Ids for the unversioned order's product references: a design's `external_id`, else any
   * product's `store_product_id` (the legacy sync's `product_id` included); the newest wins a tie.
   */
  readonly byLegacyReference: (storeId: number, references: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, number>>
  /** Inserts historical products in batches; announces nothing. */
  readonly importMany: (storeId: number, products: ReadonlyArray<ImportedProduct>) => Effect.Effect<number>
}>()("signcraft/Products") {
  static readonly layer = Layer.effect(
    Products,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const columns = sql.unsafe(productColumns())

      return Products.of({
        create: (storeId, product) =>
          sql`
            INSERT INTO products ${sql.insert(productParams(storeId, product))}
            RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(toStored)),
        findModern: (storeId, productId) =>
          !isStorableId(productId) ? Effect.fail(new NotFound({ resource: "product" })) : sql`
            SELECT ${columns} FROM products
            WHERE store_id = ${storeId} AND id = ${productId} AND kind IN ('product', 'design')`.pipe(
            Effect.orDie,
            Effect.flatMap(firstStored),
            Effect.flatMap(Option.match({
              onNone: () => Effect.fail(new NotFound({ resource: "product" })),
              onSome: Effect.succeed
            }))
          ),
        syncLegacy: Effect.fn("Products.syncLegacy")(function*(storeId, product) {
            const updated = yield* sql`
              UPDATE products SET customiser_id = ${product.customiserId}, integration_id = ${product.integrationId},
                title = ${product.title}, price_amount = ${product.priceAmount}, currency = ${product.currency},
                details = ${jsonParam(DetailsDocument, product.details)}, updated_at = now()
              WHERE store_id = ${storeId} AND kind = 'legacy' AND store_product_id = ${product.storeProductId}
              RETURNING ${columns}`
            return yield* toStored(updated.length > 0 ? updated : yield* sql`
              INSERT INTO products ${sql.insert(productParams(storeId, product))}
              RETURNING ${columns}`)
          }, sql.withTransaction, Effect.orDie),
        setExternalId: (productId, externalId) =>
          sql`
            UPDATE products SET external_id = ${externalId}, updated_at = now() WHERE id = ${productId}
            RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(toStored)),
        designsByExternalId: (storeId, externalIds) => {
          const wanted = [...new Set(externalIds)]
          if (wanted.length === 0) return Effect.succeed(new Map())
          return sql`
            SELECT id, external_id FROM products
            WHERE store_id = ${storeId} AND kind = 'design' AND external_id IN ${sql.in(wanted)}
            ORDER BY id`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeRows(DesignReferenceRow)),
            Effect.map((rows) => new Map(rows.map((row) => [row.externalId, row.id])))
          )
        },
        byLegacyReference: (storeId, references) => {
          const wanted = [...new Set(references)]
          if (wanted.length === 0) return Effect.succeed(new Map())
          return sql`
            SELECT id, external_id, store_product_id, kind FROM products
            WHERE store_id = ${storeId}
              AND (external_id IN ${sql.in(wanted)} OR store_product_id IN ${sql.in(wanted)})
            ORDER BY id`.pipe(
            Effect.orDie,
            Effect.flatMap(toReferences),
            Effect.map((rows) => {
              const byStoreId = new Map<string, number>()
              const byExternal = new Map<string, number>()
              for (const row of rows) {
                if (row.storeProductId !== null) byStoreId.set(row.storeProductId, row.id)
                if (row.kind === "design" && row.externalId !== null) byExternal.set(row.externalId, row.id)
              }
              return new Map(wanted.flatMap((ref) => {
                const id = byExternal.get(ref) ?? byStoreId.get(ref)
                return id === undefined ? [] : [[ref, id] as const]
              }))
            })
          )
        },
        importMany: Effect.fn("Products.importMany")(function*(storeId, products) {
            for (let start = 0; start < products.length; start += IMPORT_BATCH) {
              const batch = products.slice(start, start + IMPORT_BATCH).map((p) => productsTable.toParams({
                storeId,
                kind: p.legacy ? "legacy" : "product",
                title: p.title,
                priceAmount: p.priceAmount,
                currency: p.currency,
                createdAt: p.createdAt,
                updatedAt: p.createdAt
              }))
              const [first, ...rest] = batch
              if (first !== undefined) yield* sql`INSERT INTO products ${sql.insert([first, ...rest])}`
            }
            return products.length
          }, sql.withTransaction, Effect.orDie)
      })
    })
  )
}
