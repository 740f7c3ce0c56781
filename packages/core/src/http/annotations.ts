import { Context } from "effect"
import type { Scope } from "../domain/credentials/scopes.js"

/**
 * The scope an endpoint requires of the calling credential; none for public endpoints. A list
 * means any one of them suffices (a dry-run validation serves readers and writers alike).
 */
export const RequiredScope = Context.Reference<Scope | ReadonlyArray<Scope> | undefined>("signcraft/RequiredScope", {
  defaultValue: () => undefined
})

/** The scopes of which a credential needs one, as a list (empty: no scope needed). */
export const acceptedScopes = (required: Scope | ReadonlyArray<Scope> | undefined): ReadonlyArray<Scope> =>
  required === undefined ? [] : typeof required === "string" ? [required] : required

/** Whether a write takes an `Idempotency-Key`: never, optionally, or always. */
export const Idempotency = Context.Reference<"none" | "optional" | "required">("signcraft/Idempotency", {
  defaultValue: () => "none"
})

/** The longest `Idempotency-Key` a write takes. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

/**
 * Whether the handler claims the request's `Idempotency-Key` in its own first statement
 * (`HeldKey.unclaimed`) instead of the middleware claiming it in a statement before the handler
 * runs. Only for a handler that writes nothing before that statement and defers its write (the
 * order write): one statement fewer per request.
 */
export const KeyClaimedByHandler = Context.Reference<boolean>("signcraft/KeyClaimedByHandler", {
  defaultValue: () => false
})

/**
 * Whether the endpoint's answers hold no secret, so the answer kept for replay under an
 * Idempotency-Key is stored in plain rather than sealed (`SECRETS_KEY`). Sealed unless an endpoint
 * says so: a webhook subscription's answer carries its signing secret. The order write's answer is
 * the order, which its own row keeps in plain beside it; sealing the copy hid nothing, and cost
 * about a twentieth of an order's CPU.
 */
export const AnswerHoldsNoSecret = Context.Reference<boolean>("signcraft/AnswerHoldsNoSecret", {
  defaultValue: () => false
})

/**
 * Whether the endpoint's successful answer carries a secret (a signing secret, an API key): every
 * answer of it, a replay under an Idempotency-Key included, goes out with `Cache-Control: no-store`
 * so no browser or intermediary keeps a copy (RFC 9111 §5.2.2.5). Read by the request-failures
 * middleware that wraps every endpoint (`http/middleware/implementations.ts`).
 */
export const AnswerCarriesSecret = Context.Reference<boolean>("signcraft/AnswerCarriesSecret", {
  defaultValue: () => false
})

/** The name of a deprecated operation, counted per API key on every call; set by `legacyGeneration`. */
export const DeprecatedOperation = Context.Reference<string | undefined>("signcraft/DeprecatedOperation", {
  defaultValue: () => undefined
})

/**
 * Marks a group as the previous generation: its paths answer in the legacy formats with the
 * deprecation headers, and each endpoint is counted as a deprecated operation. Set by
 * {@link legacyGeneration}; read by reflection over the API (http/generations.ts).
 */
export const LegacyGeneration = Context.Reference<boolean>("signcraft/LegacyGeneration", {
  defaultValue: () => false
})
