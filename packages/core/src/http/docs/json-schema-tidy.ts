/**
 * The JSON Schemas of an OpenAPI document as code generators read them. Effect writes a number
 * as `number | "NaN" | "Infinity" | "-Infinity"` (its JSON codec spells non-finite numbers as
 * strings), which no endpoint accepts: JSON (RFC 8259 §6) has no such numbers and every field is
 * checked finite. And it keeps a check's keywords in an `allOf` beside the type, which some
 * generators read as an intersection they cannot name; merged into the schema they say the same.
 */

type JsonObject = { readonly [key: string]: unknown }

const NON_FINITE = new Set(["NaN", "Infinity", "-Infinity"])

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

const isNumeric = (schema: unknown): boolean => isObject(schema) && (schema.type === "number" || schema.type === "integer")

const isNonFiniteSpelling = (schema: unknown): boolean =>
  isObject(schema) &&
  schema.type === "string" &&
  Array.isArray(schema.enum) &&
  schema.enum.every((value) => typeof value === "string" && NON_FINITE.has(value))

const sameJson = (left: unknown, right: unknown): boolean => JSON.stringify(left) === JSON.stringify(right)

// Members that add keywords the schema lacks (or repeats) fold into it; any clash keeps the allOf.
const mergeAllOf = (schema: JsonObject): JsonObject => {
  const { allOf, ...rest } = schema
  if (!Array.isArray(allOf)) return schema
  const merged: Record<string, unknown> = { ...rest }
  for (const member of allOf) {
    if (!isObject(member)) return schema
    for (const [key, value] of Object.entries(member)) {
      if (key in merged && !sameJson(merged[key], value)) return schema
      merged[key] = value
    }
  }
  return merged
}

const dropNonFinite = (schema: JsonObject): JsonObject => {
  const { anyOf, ...rest } = schema
  if (!Array.isArray(anyOf) || !anyOf.some(isNumeric)) return schema
  const kept = anyOf.filter((member) => !isNonFiniteSpelling(member))
  if (kept.length === anyOf.length) return schema
  const [only] = kept
  return kept.length === 1 && isObject(only) ? mergeAllOf({ ...rest, ...only }) : { ...rest, anyOf: kept }
}

// Example values are data, not schemas: they are left as written. Under these keys the members
// are named schemas, whatever their names (a property may well be called `example`).
const DATA_KEYS = new Set(["example", "examples", "enum", "const", "default"])
const NAMED_SCHEMAS = new Set(["properties", "patternProperties", "$defs", "schemas"])

const tidy = (value: unknown, named: boolean): unknown => {
  if (Array.isArray(value)) return value.map((member) => tidy(member, false))
  if (!isObject(value)) return value
  const walked = Object.fromEntries(
    Object.entries(value).map(([key, member]) => [
      key,
      !named && DATA_KEYS.has(key) ? member : tidy(member, !named && NAMED_SCHEMAS.has(key))
    ])
  )
  return named ? walked : mergeAllOf(dropNonFinite(walked))
}

/** Every schema in `value` (an OpenAPI document or any part of it) with finite numbers and merged checks. */
export const tidyJsonSchemas = (value: unknown): unknown => tidy(value, false)
