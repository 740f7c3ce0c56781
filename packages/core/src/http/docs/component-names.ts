/**
 * Effect names a second, equal copy of a schema `Name_1` (a body declared under two media types
 * is two schema values). Generated clients turn component names into type names, so such a copy
 * folds into the schema it repeats; a suffixed name that differs stays and the document's test
 * (packages/core/test/http/openapi.test.ts) refuses it, asking for a name of its own.
 */

type Spec = Record<string, unknown> & { readonly components?: { readonly schemas?: Record<string, unknown> } }

const SUFFIXED = /^(.+)_(\d+)$/

const sameJson = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right)

const replaceRefs = (value: unknown, renamed: ReadonlyMap<string, string>): unknown => {
  if (Array.isArray(value)) return value.map((member) => replaceRefs(member, renamed))
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      key === "$ref" && typeof member === "string" ? renamed.get(member) ?? member : replaceRefs(member, renamed)
    ])
  )
}

/** The document with every `Name_N` component equal to `Name` replaced by `Name`. */
export const foldRepeatedComponents = (spec: Spec): Spec => {
  const schemas = spec.components?.schemas ?? {}
  const renamed = new Map<string, string>()
  for (const [name, schema] of Object.entries(schemas)) {
    const original = SUFFIXED.exec(name)?.[1]
    if (original !== undefined && original in schemas && sameJson(schemas[original], schema)) {
      renamed.set(`#/components/schemas/${name}`, `#/components/schemas/${original}`)
    }
  }
  if (renamed.size === 0) return spec
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => !renamed.has(`#/components/schemas/${name}`)))
  const rest = replaceRefs({ ...spec, components: { ...spec.components, schemas: kept } }, renamed)
  return rest as Spec
}
