import { Schema } from "effect"
import { ResourceId } from "../../domain/input/resource-id.js"

/** Argument schemas shared by the agent tools. */

/** A resource id, as every path parameter decodes it. */
export { ResourceId }

/** Paging arguments of the list tools: page size 1–100 (default 20) and the last id already seen. */
export const PageInput = {
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
  after_id: Schema.optionalKey(ResourceId)
}

/** One page of a list: the requested size, or the default. */
export const pageOf = (input: { readonly limit?: number; readonly after_id?: number }) => ({
  limit: input.limit ?? 20,
  afterId: input.after_id
})

/** The items of a fetched page of `limit + 1` rows, and whether more follow. */
export const cutRows = <A>(rows: ReadonlyArray<A>, limit: number) => ({
  items: rows.slice(0, limit),
  has_more: rows.length > limit
})
