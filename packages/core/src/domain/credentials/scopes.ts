/** Every scope an API key or connector grant can carry (docs/operator-api.md). */
export const SCOPES = [
  "analytics:read",
  "store:read",
  "customisers:read",
  "pricing:read",
  "pricing:write",
  "orders:read",
  "orders:write",
  "products:read",
  "products:write",
  "webhooks:read",
  "webhooks:write",
  "quotes:read"
] as const

/** One scope name. */
export type Scope = (typeof SCOPES)[number]

const scopeSet: ReadonlySet<string> = new Set(SCOPES)

/** Whether a string names a known scope. */
export const isScope = (value: string): value is Scope => scopeSet.has(value)

/** What a credential may do: a list of scopes, or the legacy wildcard that may do anything. */
export type Grant =
  | { readonly _tag: "Scoped"; readonly scopes: ReadonlyArray<Scope> }
  | { readonly _tag: "LegacyWildcard" }

/** Whether a grant allows an operation needing `required`. */
export const grantAllows = (grant: Grant, required: Scope): boolean =>
  grant._tag === "LegacyWildcard" || grant.scopes.includes(required)

/**
 * The scopes a grant reports (`data.scopes`, `granted_scopes`). The legacy wildcard
 * reports every scope, since it can do everything a scoped key can.
 */
export const grantedScopes = (grant: Grant): ReadonlyArray<Scope> =>
  grant._tag === "LegacyWildcard" ? SCOPES : grant.scopes
