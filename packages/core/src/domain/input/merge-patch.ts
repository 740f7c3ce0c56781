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

// One object of the result still to fill: the members of `base` patched by `patch`.
interface Pending {
  readonly base: JsonObject
  readonly patch: JsonObject
  readonly into: JsonObject
}

/** How {@link applyMergePatch} treats a `null` for a member the target does not have. */
export interface MergePatchOptions {
  /**
   * Keep it in the result as `null` instead of dropping it (RFC 7396 drops it: there is nothing
   * to remove). For checking what a patch names: such a member may be one no contract defines.
   */
  readonly keepAbsentRemovals?: boolean
  /** Told of each such member, kept or dropped. */
  readonly onAbsentRemoval?: () => void
}

/**
 * Applies an RFC 7396 merge patch to `target` and returns the patched value. Worked through
 * with a list of pending objects rather than recursion, so no depth of patch can exhaust
 * the stack.
 */
export const applyMergePatch = (target: unknown, patch: unknown, options: MergePatchOptions = {}): unknown => {
  if (!isMergeableObject(patch)) return patch
  const result: JsonObject = {}
  const pending: Array<Pending> = [{ base: isMergeableObject(target) ? target : {}, patch, into: result }]
  // A patch object merges into a fresh object, filled when its turn comes; anything else replaces.
  const merged = (base: unknown, value: unknown): unknown => {
    if (!isMergeableObject(value)) return value
    const into: JsonObject = {}
    pending.push({ base: isMergeableObject(base) ? base : {}, patch: value, into })
    return into
  }
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { base, patch: changes, into } = next
    // Existing members keep their position; members the patch adds follow in patch order.
    for (const key of Object.keys(base)) {
      if (!Object.hasOwn(changes, key)) setOwn(into, key, base[key])
      else if (changes[key] !== null) setOwn(into, key, merged(base[key], changes[key]))
    }
    for (const key of Object.keys(changes)) {
      const value = changes[key]
      if (Object.hasOwn(base, key)) continue
      if (value !== null) {
        setOwn(into, key, merged(undefined, value))
        continue
      }
      options.onAbsentRemoval?.()
      if (options.keepAbsentRemovals === true) setOwn(into, key, null)
    }
  }
  return result
}
