import { Context } from "effect"
import type { Scope } from "../domain/scopes.js"

/** The scope an endpoint requires of the calling credential; none for public endpoints. */
export const RequiredScope = Context.Reference<Scope | undefined>("signcraft/RequiredScope", {
  defaultValue: () => undefined
})

/** Whether a write takes an `Idempotency-Key`: never, optionally, or always. */
export const Idempotency = Context.Reference<"none" | "optional" | "required">("signcraft/Idempotency", {
  defaultValue: () => "none"
})

/** The name of a deprecated operation, counted per API key on every call. */
export const DeprecatedOperation = Context.Reference<string | undefined>("signcraft/DeprecatedOperation", {
  defaultValue: () => undefined
})
