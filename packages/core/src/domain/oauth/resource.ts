/**
 * The canonical form of a resource identifier (RFC 8707): a parsed absolute http(s) URL
 * without fragment or query, lowercase scheme and host, no default port, and a bare
 * origin written without its trailing slash. Anything else has no canonical form.
 */
export const canonicalResource = (value: string): string | undefined => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined
  if (value.includes("#") || url.search !== "" || url.username !== "" || url.password !== "") return undefined
  return url.pathname === "/" ? url.origin : `${url.origin}${url.pathname}`
}

/** The outcome of checking a request's `resource` parameters against the agent resource. */
export type ResourceCheck =
  | { readonly _tag: "Agent" }
  | { readonly _tag: "InvalidTarget"; readonly detail: string }

/**
 * A request may name the agent resource, or omit `resource` (which means the same
 * resource). Any other value, or several values, is `invalid_target`.
 */
export const checkResource = (values: ReadonlyArray<string>, agentResource: string): ResourceCheck => {
  if (values.length === 0) return { _tag: "Agent" }
  if (values.length > 1) return { _tag: "InvalidTarget", detail: "Name at most one resource." }
  const [value] = values
  const canonical = value === undefined ? undefined : canonicalResource(value)
  return canonical !== undefined && canonical === canonicalResource(agentResource)
    ? { _tag: "Agent" }
    : { _tag: "InvalidTarget", detail: `This server only issues tokens for the resource ${agentResource}.` }
}
