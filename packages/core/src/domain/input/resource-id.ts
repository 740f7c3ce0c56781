import { Schema } from "effect"

/** The largest id a resource can have: every id is a safe integer. */
const MAX_RESOURCE_ID = Number.MAX_SAFE_INTEGER

/** The id of a stored resource: a positive safe integer. */
export const ResourceId = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_RESOURCE_ID })).pipe(
  Schema.brand("ResourceId")
)

/** A {@link ResourceId} value. */
export type ResourceId = typeof ResourceId.Type
