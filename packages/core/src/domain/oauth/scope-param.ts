import { isScope, type Scope } from "../credentials/scopes.js"

/** A parsed `scope` parameter: the known scopes in first-seen order, or the unknown names. */
export type ScopeParam =
  | { readonly _tag: "Scopes"; readonly scopes: ReadonlyArray<Scope> }
  | { readonly _tag: "Unknown"; readonly unknown: ReadonlyArray<string> }

/**
 * Parses a space-separated `scope` parameter (RFC 6749 §3.3). Duplicates collapse;
 * every name must be a scope of the service: there is no wildcard.
 */
export const parseScopeParam = (value: string): ScopeParam => {
  const names = value.split(" ").filter((name) => name !== "")
  const unknown = names.filter((name) => !isScope(name))
  if (unknown.length > 0) return { _tag: "Unknown", unknown: [...new Set(unknown)] }
  return { _tag: "Scopes", scopes: [...new Set(names.filter(isScope))] }
}

/** The wire form of a scope list. */
export const formatScopes = (scopes: ReadonlyArray<Scope>): string => scopes.join(" ")
