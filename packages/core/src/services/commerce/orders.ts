import { Context, Effect, Exit, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { NotFound, type ValidationFailed } from "../../domain/errors.js"
import { acceptOrder } from "../../domain/orders/accept.js"
import type { OrderDraft, OrderWriteOptions, StoredOrder } from "../../domain/orders/stored-order.js"
import type { StoredProduct } from "../../domain/orders/stored-product.js"
import type { V3Address, V3Customer } from "../../domain/orders/v3-order.js"
import { type AddressRecord, orderCreatedPayload, type OrderRecord } from "../../domain/orders/webhook-payloads.js"
import { batchRows } from "../../storage/batch-rows.js"
import { inTransaction, makeGroupCommit } from "../../storage/group-commit.js"
import { decodeFirstRow, decodeRows, isStorableId, RowId, RowNumber, RowTimestamp, StoredDocument } from "../../storage/rows.js"
import { column, jsonColumn, nullableJsonColumn, snakeStruct, table } from "../../storage/table.js"
import { claimable, type Completion, heldKeyHandshake, IdempotencyStore, type NewClaim } from "../requests/idempotency.js"
import { Outbox } from "../webhooks/outbox.js"
import { decodeProducts, productColumns, toProductRecord } from "./products.js"

/** One historical order of an operator import; `currency` is stored exactly as given. */
export interface ImportedOrder {
  readonly createdAt: Date
  readonly totalAmount: number
  readonly currency: string
  readonly customer: V3Customer | null
}

const CustomerDocument = StoredDocument<V3Customer>()
const AddressDocument = StoredDocument<V3Address>()
// Line items are stored as a json document with the wire's member names.
const LineItemsDocument = Schema.Array(snakeStruct({
  productId: Schema.Number,
  quantity: Schema.Number,
  unitPriceAmount: Schema.Number,
  currency: Schema.String,
  title: Schema.String
}))

const ordersTable = table("orders", {
  id: column(RowId, "integer"),
  storeId: column(RowId, "integer"),
  source: column(Schema.Literals(["v3", "v2", "unversioned", "import"]), "text"),
  integrationId: column(Schema.NullOr(RowId), "integer"),
  storeOrderId: column(Schema.NullOr(Schema.String), "text"),
  storeOrderNumber: column(Schema.NullOr(Schema.String), "text"),
  totalAmount: column(RowNumber, "bigint"),
  appTotal: column(RowNumber, "bigint"),
  currency: column(Schema.String, "text"),
  shippingMethod: column(Schema.NullOr(Schema.String), "text"),
  customer: nullableJsonColumn(CustomerDocument),
  billingAddress: nullableJsonColumn(AddressDocument),
  shippingAddress: nullableJsonColumn(AddressDocument),
  lineItems: jsonColumn(LineItemsDocument),
  createdAt: column(RowTimestamp, "timestamptz"),
  updatedAt: column(RowTimestamp, "timestamptz")
})
const OrderRow = ordersTable.row

// The first part of an order write's read: the id and time the order will have, and the state
// of what it names.
const OrderHead = snakeStruct({
  n: RowNumber,
  orderId: RowId,
  placedAt: RowTimestamp,
  storeCurrency: Schema.String,
  integrationStoreId: Schema.NullOr(RowId),
  integrationEnabled: Schema.NullOr(Schema.Boolean),
  keyClaimed: Schema.Boolean
})
const headRows = decodeRows(OrderHead)
type OrderHeadRow = typeof OrderHead.Type

// One order write's read, as a batch carries it.
interface ContextRequest {
  readonly storeId: number
  readonly integrationId: number | null
  readonly productIds: ReadonlyArray<number>
  /** The request's Idempotency-Key, when this read is to claim it (HeldKey.unclaimed). */
  readonly claim: NewClaim | undefined
}

interface OrderContext {
  readonly head: OrderHeadRow
  readonly products: ReadonlyArray<StoredProduct>
  /** Whether the read claimed the request's key (false when it had none to claim). */
  readonly claimed: boolean
}

// One accepted order, its event's payload and the answer its request keeps for replay, if any,
// as a batch writes them.
interface OrderWrite {
  readonly order: StoredOrder
  readonly payload: unknown
  readonly answer: Completion | undefined
}

// The most orders one statement reads or writes.
const ORDER_BATCH = 64

const toStored = (row: typeof OrderRow.Type): StoredOrder => ({ ...row, status: "received" })

const toAddressRecord = (address: V3Address | null): AddressRecord | null =>
  address === null ? null : {
    firstName: address.first_name ?? null,
    lastName: address.last_name ?? null,
    company: address.company ?? null,
    address1: address.address_1 ?? null,
    address2: address.address_2 ?? null,
    city: address.city ?? null,
    province: address.province ?? null,
    postcode: address.postcode ?? null,
    country: address.country ?? null,
    phone: address.phone ?? null,
    email: address.email ?? null
  }

/** A stored order and its products as the `order:created` payload builder sees them. */
export const toOrderRecord = (order: StoredOrder, products: ReadonlyArray<StoredProduct>): OrderRecord => {
  const byId = new Map(products.map((product) => [product.id, product]))
  return {
    id: order.id,
    orderNumber: order.id,
    storeOrderId: order.storeOrderId,
    storeOrderNumber: order.storeOrderNumber,
    totalAmount: order.totalAmount,
    appTotal: order.appTotal,
    currency: order.currency,
    shippingMethod: order.shippingMethod,
    billingAddress: toAddressRecord(order.billingAddress),
    shippingAddress: toAddressRecord(order.shippingAddress),
    customer: order.customer === null ? null : {
      firstName: order.customer.first_name ?? null,
      lastName: order.customer.last_name ?? null,
      phone: order.customer.phone ?? null,
      email: order.customer.email ?? null,
      externalId: null
    },
    products: order.lineItems.flatMap((item) => {
      const product = byId.get(item.productId)
      return product === undefined ? [] : [toProductRecord(product)]
    }),
    createdAt: order.createdAt,
    updatedAt: order.updatedAt
  }
}

const IMPORT_BATCH = 1000

/**
 * Orders of every generation through one write path: the v3 model, the integration checked,
 * every line item resolved to a product of the Store with its price captured, and
 * `order:created` queued in the same transaction.
 */
export class Orders extends Context.Service<Orders, {
  /**
   * Checks and writes an order. Under an idempotency key ({@link HeldKey}) the order's read claims
   * the key when it is not claimed yet (a key another request holds: nothing is written), and the
   * write waits for the request's answer and commits with it: nothing may read the order back
   * before then.
   */
  readonly record: (
    storeId: number,
    request: OrderDraft,
    options: OrderWriteOptions
  ) => Effect.Effect<StoredOrder, ValidationFailed>
  /** One order of the Store; another Store's order is not found, exactly like a missing one. */
  readonly find: (storeId: number, orderId: number) => Effect.Effect<StoredOrder, NotFound>
  /** A page of the Store's orders, newest first: `limit` rows with ids below `beforeId`. */
  readonly listNewestFirst: (
    storeId: number,
    page: { readonly limit: number; readonly beforeId: number | undefined }
  ) => Effect.Effect<ReadonlyArray<StoredOrder>>
  /** Inserts historical orders in batches; announces nothing. */
  readonly importMany: (storeId: number, orders: ReadonlyArray<ImportedOrder>) => Effect.Effect<number>
}>()("signcraft/Orders") {
  static readonly layer = Layer.effect(
    Orders,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* Outbox
      const idempotency = yield* IdempotencyStore
      const columns = sql.unsafe(ordersTable.columns)

      // What an order write reads: the order's id and time, the Store's currency, the integration
      // the order names and the products its lines name. The id is taken here so that the order
      // and its event, whose payload carries the id, are written by one statement. One statement
      // reads for a whole group commit batch; each row carries its request's index `n`.
      const readContexts = (requests: ReadonlyArray<ContextRequest>) => {
        // The keys this read claims, in the same statement (HeldKey): each request's claim, if any.
        const claiming = requests.flatMap((request, n) => request.claim === undefined ? [] : [{ n, claim: request.claim }])
        const claims = claimable(claiming.map(({ claim }) => claim))
        const carried = new Set(claiming.filter((_, index) => claims.isFirst[index]).map(({ n }) => n))
        const input = requests.map((request, n) => ({
          n,
          store_id: request.storeId,
          integration_id: request.integrationId !== null && isStorableId(request.integrationId) ? request.integrationId : null,
          claim_store_id: carried.has(n) ? request.claim?.request.storeId ?? null : null,
          claim_key: carried.has(n) ? request.claim?.request.key ?? null : null
        }))
        const wanted = requests.flatMap((request, n) =>
          [...new Set(request.productIds.filter(isStorableId))].map((productId) => ({ n, product_id: productId }))
        )
        return sql`
          WITH ${claims.first.length === 0 ? sql`` : sql`claimed AS (${idempotency.claimKeys(claims.first)}),`}
          input AS MATERIALIZED (
            SELECT x.n, x.store_id, x.integration_id, x.claim_store_id, x.claim_key,
              nextval(pg_get_serial_sequence('orders', 'id')) AS order_id
            FROM ${
          batchRows(sql, input, "n integer, store_id integer, integration_id integer, claim_store_id integer, claim_key text")
        } AS x
            ORDER BY x.n
          ), wanted AS (
            SELECT * FROM ${batchRows(sql, wanted, "n integer, product_id integer")} AS w
          )
          SELECT input.n, input.order_id, now() AS placed_at, s.currency AS store_currency,
            i.store_id AS integration_store_id, i.enabled AS integration_enabled,
            ${
          claims.first.length === 0 ? sql`false` : sql`EXISTS (
              SELECT 1 FROM claimed c WHERE c.store_id = input.claim_store_id AND c.idempotency_key = input.claim_key)`
        } AS key_claimed, ${sql.unsafe(productColumns("p"))}
          FROM input
          LEFT JOIN stores s ON s.id = input.store_id
          LEFT JOIN integrations i ON i.id = input.integration_id
          LEFT JOIN wanted w ON w.n = input.n
          LEFT JOIN products p ON p.store_id = input.store_id AND p.id = w.product_id`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => {
            // Row i's head is heads[i]; a row with a product also carries the product.
            const withProduct = rows.flatMap((row, index) => row.id === null ? [] : [index])
            return Effect.all({
              heads: headRows(rows),
              products: decodeProducts(withProduct.map((index) => rows[index]))
            }).pipe(Effect.map(({ heads, products }) => {
              const contexts = new Map<number, { head: OrderHeadRow; products: Array<StoredProduct>; claimed: boolean }>()
              for (const head of heads) {
                if (!contexts.has(head.n)) contexts.set(head.n, { head, products: [], claimed: carried.has(head.n) && head.keyClaimed })
              }
              products.forEach((product, at) => {
                const n = heads[withProduct[at] ?? -1]?.n
                if (n !== undefined) contexts.get(n)?.products.push(product)
              })
              return requests.map((_, n): Exit.Exit<OrderContext> => {
                const context = contexts.get(n)
                return context === undefined ? Exit.die(new Error(`order context ${n} was not read`)) : Exit.succeed(context)
              })
            }))
          })
        )
      }

      // Writes a batch of orders, their `order:created` events and their requests' answers in one
      // statement.
      const writeOrders = (batch: ReadonlyArray<OrderWrite>) => {
        const insert = sql`${ordersTable.insertBatch(sql, batch.map(({ order }) => order))}
          ORDER BY id`
        const answers = batch.flatMap(({ answer }) => answer === undefined ? [] : [answer])
        return outbox.enqueueWith(
          answers.length === 0 ? [insert] : [insert, idempotency.keepAnswers(answers)],
          "order:created",
          batch.map(({ order, payload }) => ({ storeId: order.storeId, payload }))
        ).pipe(Effect.as(batch.map(() => Exit.void)))
      }

      // Concurrent order writes share statements (storage/group-commit.ts): under load one read and
      // one write serve a whole batch of orders, where each order alone would take two round trips.
      const reads = makeGroupCommit({ maxBatch: ORDER_BATCH, maxConcurrent: 1, alone: inTransaction(sql), write: readContexts })
      const writes = makeGroupCommit({ maxBatch: ORDER_BATCH, maxConcurrent: 1, alone: inTransaction(sql), write: writeOrders })

      const record = Effect.fn("Orders.record")(function*(storeId: number, request: OrderDraft, options: OrderWriteOptions) {
          const requested = request.line_items ?? []
          const handshake = yield* heldKeyHandshake
          const { head, products, claimed } = yield* reads.submit({
            storeId,
            integrationId: request.integration_id,
            productIds: requested.map((item) => item.product_id),
            claim: handshake.claim
          })
          const mayWrite = handshake.settle(claimed)
          const order = yield* Effect.fromResult(acceptOrder(storeId, request, options, {
            orderId: head.orderId,
            placedAt: head.placedAt,
            storeCurrency: head.storeCurrency,
            integration: head.integrationStoreId === null || head.integrationEnabled === null
              ? undefined
              : { storeId: head.integrationStoreId, enabled: head.integrationEnabled },
            products
          }))
          // Another request holds the key: this one writes nothing, and is answered from that one's.
          if (!mayWrite) return order
          const payload = orderCreatedPayload(toOrderRecord(order, products))
          yield* handshake.write((answer) => writes.submit({ order, payload, answer }))
          return order
        })

      const firstOrder = decodeFirstRow(OrderRow)
      const orderRows = decodeRows(OrderRow)
      return Orders.of({
        record,
        find: (storeId, orderId) =>
          !isStorableId(orderId) ? Effect.fail(new NotFound({ resource: "order" })) : sql`
            SELECT ${columns} FROM orders WHERE store_id = ${storeId} AND id = ${orderId}`.pipe(
            Effect.orDie,
            Effect.flatMap(firstOrder),
            Effect.flatMap(Option.match({
              onNone: () => Effect.fail(new NotFound({ resource: "order" })),
              onSome: (row) => Effect.succeed(toStored(row))
            }))
          ),
        listNewestFirst: (storeId, { limit, beforeId }) =>
          sql`
            SELECT ${columns} FROM orders
            WHERE store_id = ${storeId} ${beforeId === undefined ? sql`` : sql`AND id < ${beforeId}`}
            ORDER BY id DESC LIMIT ${limit}`.pipe(
            Effect.orDie,
            Effect.flatMap(orderRows),
            Effect.map((rows) => rows.map(toStored))
          ),
        importMany: Effect.fn("Orders.importMany")(function*(storeId, orders) {
            for (let start = 0; start < orders.length; start += IMPORT_BATCH) {
              const batch = orders.slice(start, start + IMPORT_BATCH).map((o) => ordersTable.toParams({
                storeId,
                source: "import",
                totalAmount: o.totalAmount,
                currency: o.currency,
                customer: o.customer,
                createdAt: o.createdAt,
                updatedAt: o.createdAt
              }))
              const [first, ...rest] = batch
              if (first !== undefined) yield* sql`INSERT INTO orders ${sql.insert([first, ...rest])}`
            }
            return orders.length
          }, sql.withTransaction, Effect.orDie)
      })
    })
  )
}
