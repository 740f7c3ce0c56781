/** Request headers as a Fetch `Headers` object or a plain record (Node's `IncomingHttpHeaders` included). */
export type HeaderSource =
  | { readonly get: (name: string) => string | null }
  | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const isHeadersLike = (source: HeaderSource): source is { readonly get: (name: string) => string | null } =>
  typeof (source as { readonly get?: unknown }).get === "function"

/**
 * Reads one header case-insensitively; undefined when absent or blank.
 * Repeated values are joined with ", " exactly as `Headers.get` does, so both
 * sources agree (and a repeated signature header simply fails to match).
 */
export const readHeader = (source: HeaderSource, name: string): string | undefined => {
  const wanted = name.toLowerCase()
  const values: Array<string> = []
  if (isHeadersLike(source)) {
    const value = source.get(wanted)
    if (value !== null) values.push(value)
  } else {
    for (const [key, value] of Object.entries(source)) {
      if (key.toLowerCase() !== wanted || value === undefined) continue
      if (typeof value === "string") values.push(value)
      else values.push(...value)
    }
  }
  const joined = values.map((value) => value.trim()).join(", ")
  return joined.length > 0 ? joined : undefined
}
