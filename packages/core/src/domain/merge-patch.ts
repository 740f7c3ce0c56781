/**
 * JSON Merge Patch (RFC 7396). Inputs are never mutated: the result is a fresh object wherever the
 * patch changes something, and shares untouched sub-values with `target`.
 */

type JsonObject = { [key: string]: unknown }

const isMergeableObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

// Plain assignment of a "__proto__" key would replace the prototype instead of adding a property;
// defineProperty stores it as ordinary data, which is what a JSON document means by it.
const setOwn = (object: JsonObject, key: string, value: unknown): void => {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true })
}

/** Applies an RFC 7396 merge patch to `target` and returns the patched value. */
export const applyMergePatch = (target: unknown, patch: unknown): unknown => {
  if (!isMergeableObject(patch)) return patch
  const base = isMergeableObject(target) ? target : {}
  const result: JsonObject = {}
  // Existing members keep their position; members the patch adds follow in patch order.
  for (const key of Object.keys(base)) {
    if (!Object.hasOwn(patch, key)) setOwn(result, key, base[key])
    else if (patch[key] !== null) setOwn(result, key, applyMergePatch(base[key], patch[key]))
  }
  for (const key of Object.keys(patch)) {
    const value = patch[key]
    if (value !== null && !Object.hasOwn(base, key)) setOwn(result, key, applyMergePatch(undefined, value))
  }
  return result
}
