import { Result } from "effect"
import { ValidationFailed } from "../errors.js"
import type { FieldError } from "../input/field-error.js"

/** How a request may use an integration it names: whatever its state, or only while enabled. */
export type IntegrationUse = "any" | "enabled"

/**
 * The integration a request names (`found`, looked up by id in any Store) if the request may use
 * it, else the fault at `pointer`: another Store's integration is reported as unknown, exactly like a
 * missing one, and with `enabled` a disabled one is refused.
 */
export const checkIntegrationUse = <A extends { readonly storeId: number; readonly enabled: boolean }>(
  found: A | undefined,
  storeId: number,
  use: IntegrationUse,
  pointer: string
): Result.Result<A, ValidationFailed> => {
  const fault = (code: string, detail: string) =>
    Result.fail(new ValidationFailed({ errors: [{ pointer, code, detail } satisfies FieldError] }))
  if (found === undefined || found.storeId !== storeId) return fault("unknown_integration", "No integration of this Store has this id.")
  if (use === "enabled" && !found.enabled) return fault("integration_disabled", "This integration is disabled; enable it first.")
  return Result.succeed(found)
}
