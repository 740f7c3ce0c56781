import { Effect, Exit, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { decodeRows, RowId, RowNumber, RowTimestamp, StoredDocument } from "../../src/storage/rows.js"
import { column, jsonColumn, nullableJsonColumn, snakeCase, snakeStruct, table } from "../../src/storage/table.js"

interface Note {
  readonly text: string
}

const NoteDocument = StoredDocument<Note>()

// A table described once; everything below is derived from this description.
const widgets = table("widgets", {
  id: column(RowId, "integer"),
  storeId: column(RowId, "integer"),
  priceAmount: column(RowNumber, "bigint"),
  note: nullableJsonColumn(NoteDocument),
  lineItems: jsonColumn(Schema.Array(Schema.String)),
  createdAt: column(RowTimestamp, "timestamptz")
})

const decode = (rows: ReadonlyArray<unknown>) => Effect.runSyncExit(decodeRows(widgets.row)(rows))

describe("a table description", () => {
  it("names each column by the snake_case spelling of its field", () => {
    expect(snakeCase("storeId")).toBe("store_id")
    expect(snakeCase("address1")).toBe("address1")
    expect(snakeCase("previousSecretExpiresAt")).toBe("previous_secret_expires_at")
    expect(widgets.snake).toEqual({
      id: "id",
      storeId: "store_id",
      priceAmount: "price_amount",
      note: "note",
      lineItems: "line_items",
      createdAt: "created_at"
    })
  })

  it("lists its columns in the description's order, bare or qualified", () => {
    expect(widgets.columns).toBe("id, store_id, price_amount, note, line_items, created_at")
    expect(widgets.columnsOf("w")).toBe("w.id, w.store_id, w.price_amount, w.note, w.line_items, w.created_at")
    // Asked twice, the qualified list is the same text (it is derived once per alias).
    expect(widgets.columnsOf("w")).toBe(widgets.columnsOf("w"))
  })

  it("decodes a selected row into its camelCase fields through each column's schema", () => {
    const createdAt = new Date("2026-01-02T03:04:05.000Z")
    const exit = decode([{
      id: "7",
      store_id: 3,
      price_amount: "1200",
      note: "{\"text\":\"hi\"}",
      line_items: ["a", "b"],
      created_at: createdAt
    }])
    expect(exit).toEqual(Exit.succeed([{
      id: 7,
      storeId: 3,
      priceAmount: 1200,
      note: { text: "hi" },
      lineItems: ["a", "b"],
      createdAt
    }]))
  })

  it("refuses a mis-typed row as a defect", () => {
    const good = { id: 1, store_id: 1, price_amount: 1, note: null, line_items: [], created_at: new Date(0) }
    expect(Exit.isSuccess(decode([good]))).toBe(true)
    expect(Exit.isFailure(decode([{ ...good, price_amount: "twelve" }]))).toBe(true)
    expect(Exit.isFailure(decode([{ ...good, line_items: [1] }]))).toBe(true)
    // A camelCase key is not the column.
    const { store_id: _, ...camel } = good
    expect(Exit.isFailure(decode([{ ...camel, storeId: 1 }]))).toBe(true)
  })

  it("writes the fields given as sql.insert binds them: snake_case keys, documents as JSON text", () => {
    const createdAt = new Date(0)
    expect(widgets.toParams({ storeId: 3, note: { text: "hi" }, createdAt })).toEqual({
      store_id: 3,
      note: "{\"text\":\"hi\"}",
      created_at: createdAt
    })
    expect(widgets.toParams({ note: null })).toEqual({ note: null })
  })

  it("writes a whole row as a batch's JSON document carries it: documents as JSON values", () => {
    const createdAt = new Date("2026-01-02T03:04:05.000Z")
    const row = widgets.toBatchRow({ id: 1, storeId: 3, priceAmount: 5, note: { text: "hi" }, lineItems: ["x"], createdAt })
    expect(row).toEqual({ id: 1, store_id: 3, price_amount: 5, note: { text: "hi" }, line_items: ["x"], created_at: createdAt })
    expect(JSON.parse(JSON.stringify([row]))).toEqual([
      { id: 1, store_id: 3, price_amount: 5, note: { text: "hi" }, line_items: ["x"], created_at: "2026-01-02T03:04:05.000Z" }
    ])
  })

  it("a query's own row shape decodes snake_case columns too", () => {
    const Head = snakeStruct({ orderId: RowId, keyClaimed: Schema.Boolean })
    expect(Effect.runSync(decodeRows(Head)([{ order_id: "4", key_claimed: true }]))).toEqual([{ orderId: 4, keyClaimed: true }])
  })
})
