import { Effect } from "effect"
import { NotFound } from "../domain/errors.js"

/**
 * Reads an integer resource id from a path segment. Anything that is not a positive decimal
 * integer names no resource, so it answers 404 like an unknown id rather than a validation error:
 * clients treat both the same way (refresh the list).
 */
export const resourceId = (segment: string, resource: string): Effect.Effect<number, NotFound> =>
  /^[1-9]\d{0,15}$/.test(segment) ? Effect.succeed(Number(segment)) : Effect.fail(new NotFound({ resource }))
