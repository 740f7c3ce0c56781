import { Result } from "effect"
import type { FieldError } from "../input/field-error.js"
import { toPointer } from "../input/field-error.js"
import type { V3Customisation } from "./v3-product.js"

type Path = ReadonlyArray<string | number>

/**
 * Folds a free-text key into stable snake_case: camelCase and acronym boundaries
 * split, accents stripped, every run of other characters becomes one underscore.
 * "fontFamily" → "font_family", "HTMLColour" → "html_colour", "Line 1" → "line_1".
 */
export const toSnakeCaseKey = (raw: string): string =>
  raw
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")

// Labels keep the original letters (accents included) and only space the words.
const toLabelWords = (raw: string): string =>
  raw
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/[\s_\-.]+/gu, " ")
    .trim()
    .toLowerCase()

const toLabel = (path: Path): string => {
  const text = path.map((segment) => (typeof segment === "number" ? String(segment + 1) : toLabelWords(segment)))
    .filter((words) => words.length > 0)
    .join(" ")
  return text.charAt(0).toUpperCase() + text.slice(1)
}

const keySegment = (segment: string | number): string =>
  typeof segment === "number" ? String(segment + 1) : toSnakeCaseKey(segment)

interface Leaf {
  readonly path: Path
  readonly value: string
}

// Depth-first, in the object's own key order, so the same cart always yields
// the same list. Null means "not chosen" and yields nothing.
const collectLeaves = (value: unknown, path: Path, out: Array<Leaf>): void => {
  if (value === null || value === undefined) return
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collectLeaves(item, [...path, index], out)
    })
    return
  }
  if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) collectLeaves(item, [...path, key], out)
    return
  }
  out.push({ path, value: String(value) })
}

/**
 * Maps a legacy `cart` object to v3 customisations. Every non-null scalar
 * becomes one record; nested objects and arrays are flattened, their path
 * joined into the key (`font.name` → `font_name`, `colours[0]` → `colours_1`,
 * positions counted from 1) and spaced into the label ("Font name", "Colours 1").
 * Values are stringified (`true`, `12.5`). A key that folds to nothing, or two
 * paths that fold to the same key, are faults pointing into `/cart`.
 */
export const cartToCustomisations = (
  cart: Readonly<Record<string, unknown>>,
  basePath: Path = ["cart"]
): Result.Result<ReadonlyArray<V3Customisation>, ReadonlyArray<FieldError>> => {
  const leaves: Array<Leaf> = []
  collectLeaves(cart, [], leaves)
  const faults: Array<FieldError> = []
  const seen = new Map<string, Path>()
  const customisations: Array<V3Customisation> = []
  for (const leaf of leaves) {
    const pointer = toPointer([...basePath, ...leaf.path])
    const segments = leaf.path.map(keySegment)
    if (segments.some((segment) => segment.length === 0)) {
      faults.push({ pointer, code: "invalid_key", detail: "This cart key has no letters or digits to form a snake_case key" })
      continue
    }
    const key = segments.join("_")
    const earlier = seen.get(key)
    if (earlier !== undefined) {
      faults.push({
        pointer,
        code: "duplicate_key",
        detail: `Folds to the key ${key}, already taken by ${toPointer([...basePath, ...earlier])}`
      })
      continue
    }
    seen.set(key, leaf.path)
    customisations.push({ key, label: toLabel(leaf.path), value: leaf.value })
  }
  return faults.length > 0 ? Result.fail(faults) : Result.succeed(customisations)
}
