import fc from "fast-check"

/**
 * Mutations of a valid request: what the fuzz suite sends instead of it. Each mutation is a
 * plain descriptor (printable as a reproduction); `applyJson` and `applyForm` turn it into the
 * bytes and headers of a request.
 */

/** A step into a JSON value: a member name or an array index. */
export type Segment = string | number

/** How an over-long body travels: with its Content-Length, or chunked (no length up front). */
export type Transport = "sized" | "chunked"

/** A whole-body replacement that is not the valid body at all. */
export type BodyKind = "empty" | "not_json" | "truncated_json" | "invalid_utf8" | "json_null" | "json_array" | "json_string" | "json_number"

/** One way of spoiling a valid request. */
export type Mutation =
  | { readonly kind: "replace"; readonly path: ReadonlyArray<Segment>; readonly value: string }
  | { readonly kind: "add_member"; readonly path: ReadonlyArray<Segment>; readonly name: string; readonly value: string }
  | { readonly kind: "remove_member"; readonly path: ReadonlyArray<Segment> }
  | { readonly kind: "body"; readonly body: BodyKind }
  | { readonly kind: "content_type"; readonly contentType: string | null }
  | { readonly kind: "oversize"; readonly size: "near_limit" | "over_limit"; readonly transport: Transport }
  | { readonly kind: "path_param"; readonly name: string; readonly value: string }

/** The kinds of mutation, for the statistics of a long run. */
export type MutationKind = Mutation["kind"]

/** The request body limit (settings `maxBodyBytes`, docs/input-handling.md). */
export const BODY_LIMIT = 1024 * 1024

const nested = (depth: number, open: string, close: string, leaf: string) => open.repeat(depth) + leaf + close.repeat(depth)

/**
 * Raw JSON texts put in place of a value. Some are not representable as JavaScript values
 * (`1e400`, `-0` as written, 2**63 exactly) or are not JSON at all (`NaN`), so values are
 * spliced into the serialised body as text.
 */
export const BAD_JSON_VALUES: ReadonlyArray<string> = [
  // wrong types
  "null", "true", "false", "0", "-1", "1.5", "\"\"", "\"text\"", "[]", "{}", "[1,\"a\",null]", "{\"a\":1}",
  // NUL and unpaired surrogates, as JSON escapes (the bytes on the wire stay valid UTF-8)
  JSON.stringify("\u0000"), JSON.stringify("before\u0000after"), JSON.stringify("\ud800"), JSON.stringify("x\udfff"),
  JSON.stringify("\udc00\ud800"), JSON.stringify("emoji cut \ud83d"),
  // numbers that overflow, underflow or lose their sign
  "1e400", "-1e400", "1e-400", "-0", "-0.0", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
  "123456789012345678901234567890", "1.7976931348623157e309", "4.9e-325", "0.1e1", "1E2",
  // non-finite tokens: not JSON at all
  "NaN", "Infinity", "-Infinity",
  // deep nesting: just over the contract's 64 levels, and far beyond
  nested(65, "[", "]", "1"), nested(65, "{\"a\":", "}", "1"), nested(10_000, "[", "]", ""), nested(10_000, "{\"a\":", "}", "null"),
  // a long string (far below the body limit)
  JSON.stringify("x".repeat(100_000))
]

/** Strings with NUL or an unpaired surrogate: the contract refuses them wherever a string is read. */
export const isBadStringValue = (value: string): boolean => {
  if (!value.startsWith("\"")) return false
  const text: unknown = JSON.parse(value)
  return typeof text === "string" && (text.includes("\u0000") || /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text))
}

/** Whether a raw value is JSON at all (`NaN` and `Infinity` are not). */
export const isJsonText = (value: string): boolean => {
  try {
    JSON.parse(value)
    return true
  } catch {
    return false
  }
}

/** Numbers beyond every double (`1e400`, `1.79e309`): no field can hold them (docs/input-handling.md). */
export const isOverflowingNumber = (value: string): boolean => /^-?\d+(\.\d+)?e(309|3[1-9]\d|[4-9]\d\d)$/i.test(value)

/**
 * Odd spellings of a path id: other forms of the valid id itself (so a lenient parser can only
 * reach the entry's own resource, never another entry's), and text that names no id at all.
 */
export const badPathValues = (valid: string): ReadonlyArray<string> => {
  const id = Number(valid)
  const forms = Number.isSafeInteger(id) && id > 0
    ? [` ${valid}`, `${valid}%20`, `+${valid}`, `0${valid}`, `${valid}.0`, `${valid}e0`, `0x${id.toString(16)}`, `${valid}%00`]
    : [`${valid}%00`, `${valid}%ED%A0%80`]
  return [
    ...forms, "0", "-1", "1.5", "1e400", "-0", "9223372036854775808", "99999999999999999999", "abc", "%00", "%ED%A0%80", "%FF",
    "x".repeat(5000), "NaN", "Infinity"
  ]
}

const UNKNOWN_MEMBER_NAMES = ["zz_unknown", "__proto__", "constructor", "", "\u0000", "a.b", "~1"]

/** Content types other than the endpoint's own (null: none at all). */
const OTHER_CONTENT_TYPES: ReadonlyArray<string | null> = [
  null, "text/plain", "application/xml", "multipart/form-data; boundary=x", "application/octet-stream", "application/json; charset=latin1",
  "application/x-www-form-urlencoded", "application/json", "*/*", "application/problem+json"
]

/** Every path of a JSON value, the root (`[]`) first. */
export const pathsOf = (value: unknown, prefix: ReadonlyArray<Segment> = []): Array<ReadonlyArray<Segment>> => {
  const here = [prefix]
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => pathsOf(item, [...prefix, index]))]
  if (value !== null && typeof value === "object") {
    return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))]
  }
  return here
}

/** The value at a path of a JSON value (undefined when there is none). */
export const valueAt = (value: unknown, path: ReadonlyArray<Segment>): unknown =>
  path.reduce<unknown>((at, segment) => (at !== null && typeof at === "object" ? (at as Record<string, unknown>)[segment] : undefined), value)

const WHOLE_BODY: ReadonlyArray<BodyKind> = ["empty", "not_json", "truncated_json", "invalid_utf8", "json_null", "json_array", "json_string", "json_number"]

/** What a fuzz entry's request looks like, for choosing mutations. */
export interface MutationTarget {
  /** The valid body as a JSON value (form bodies: their parameters as an object of strings). */
  readonly body: unknown
  /** The path parameters and their valid values. */
  readonly pathParams: Readonly<Record<string, string>>
  /** Whether the body is a form (values are then raw percent-encoded texts, not JSON). */
  readonly form: boolean
}

/** Raw, percent-encoded values for a form parameter. */
export const BAD_FORM_VALUES: ReadonlyArray<string> = [
  "", "%00", "a%00b", "%ED%A0%80", "%FF%FE", "%", "%zz", "x".repeat(100_000), "1e400", "-0", "%0D%0Aset-cookie:x=1", "%7B%22a%22:1%7D",
  "[]", "null"
]

/** The mutations of a request, weighted towards spoiling one value of the body. */
export const mutationOf = (target: MutationTarget): fc.Arbitrary<Mutation> => {
  const paths = pathsOf(target.body)
  const memberPaths = paths.filter((path) => path.length > 0)
  const objectPaths = paths.filter((path) => {
    const at = valueAt(target.body, path)
    return at !== null && typeof at === "object" && !Array.isArray(at)
  })
  const values = target.form ? BAD_FORM_VALUES : BAD_JSON_VALUES
  const options: Array<fc.WeightedArbitrary<Mutation>> = [
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant("replace" as const),
        path: fc.constantFrom(...(target.form ? memberPaths : paths)),
        value: fc.constantFrom(...values)
      })
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("body" as const), body: fc.constantFrom(...WHOLE_BODY) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("content_type" as const), contentType: fc.constantFrom(...OTHER_CONTENT_TYPES) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("oversize" as const),
        size: fc.constantFrom("near_limit" as const, "over_limit" as const),
        transport: fc.constantFrom("sized" as const, "chunked" as const)
      })
    }
  ]
  if (objectPaths.length > 0) {
    options.push({
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("add_member" as const),
        path: fc.constantFrom(...objectPaths),
        name: fc.constantFrom(...UNKNOWN_MEMBER_NAMES),
        value: fc.constantFrom(...values)
      })
    })
  }
  if (memberPaths.length > 0) {
    options.push({ weight: 2, arbitrary: fc.record({ kind: fc.constant("remove_member" as const), path: fc.constantFrom(...memberPaths) }) })
  }
  const pathParams = Object.entries(target.pathParams)
  if (pathParams.length > 0) {
    options.push({
      weight: 2,
      arbitrary: fc.constantFrom(...pathParams).chain(([name, valid]) =>
        fc.record({ kind: fc.constant("path_param" as const), name: fc.constant(name), value: fc.constantFrom(...badPathValues(valid)) })
      )
    })
  }
  return fc.oneof(...options)
}

/** Mutations every entry receives whatever the seed: the structural ones the contract names. */
export const ALWAYS: ReadonlyArray<Mutation> = [
  { kind: "body", body: "empty" },
  { kind: "body", body: "not_json" },
  { kind: "content_type", contentType: "text/plain" },
  { kind: "replace", path: [], value: nested(10_000, "[", "]", "") },
  { kind: "replace", path: [], value: nested(65, "{\"a\":", "}", "1") },
  { kind: "oversize", size: "over_limit", transport: "sized" },
  { kind: "oversize", size: "over_limit", transport: "chunked" }
]

/** The bytes and headers a mutated request carries. */
export interface RequestBody {
  readonly bytes: Uint8Array<ArrayBuffer>
  readonly contentType: string | null
  readonly transport: Transport
}

const encoder = new TextEncoder()
const MARK = "\u0001fuzz\u0001"

// Serialises `value` with the text `raw` spliced in at `path` (a fresh member `name` when given).
const spliceJson = (value: unknown, path: ReadonlyArray<Segment>, raw: string | undefined, name?: string): string => {
  if (path.length === 0 && name === undefined) return raw ?? ""
  const copy: unknown = structuredClone(value)
  const parent = name === undefined ? valueAt(copy, path.slice(0, -1)) : valueAt(copy, path)
  const key = name ?? path[path.length - 1]
  if (parent === null || typeof parent !== "object" || key === undefined) return JSON.stringify(copy)
  const record = parent as Record<string, unknown>
  if (raw === undefined) {
    if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1)
    else delete record[key]
    return JSON.stringify(copy)
  }
  // `__proto__` as a literal member: defineProperty keeps it an own, serialisable member.
  Object.defineProperty(record, key, { value: MARK, enumerable: true, configurable: true, writable: true })
  return JSON.stringify(copy).replace(JSON.stringify(MARK), () => raw)
}

// The body grown to `total` bytes: its first string field made long (a big string where the
// contract reads one), else a padding member at the root, else a padded array around it.
const padded = (valid: unknown, total: number): string => {
  const text = JSON.stringify(valid)
  const filler = (room: number) => "x".repeat(Math.max(0, room))
  const field = pathsOf(valid).find((path) => typeof valueAt(valid, path) === "string")
  if (field !== undefined) {
    const without = spliceJson(valid, field, "\"\"")
    return spliceJson(valid, field, `"${filler(total - without.length)}"`)
  }
  if (text.startsWith("{") && text !== "{}") {
    const head = "{\"fuzz_padding\":\""
    return `${head}${filler(total - text.length - head.length - 1)}",${text.slice(1)}`
  }
  const head = "[\""
  return `${head}${filler(total - text.length - head.length - 3)}",${text}]`
}

const wholeBody = (kind: BodyKind, valid: string): string | Uint8Array<ArrayBuffer> => {
  switch (kind) {
    case "empty":
      return ""
    case "not_json":
      return "<xml>not json</xml>"
    case "truncated_json":
      return valid.slice(0, Math.max(1, Math.floor(valid.length / 2)))
    case "invalid_utf8":
      return new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d])
    case "json_null":
      return "null"
    case "json_array":
      return `[${valid}]`
    case "json_string":
      return JSON.stringify(valid)
    case "json_number":
      return "42"
  }
}

/** A form body from parameters whose values are already percent-encoded. */
export const encodeForm = (params: Readonly<Record<string, string | ReadonlyArray<string>>>): string =>
  Object.entries(params)
    .flatMap(([name, value]) => (typeof value === "string" ? [value] : value).map((item) => `${encodeURIComponent(name)}=${item}`))
    .join("&")

/** Percent-encodes the values of form parameters. */
export const formParams = (params: Readonly<Record<string, string | ReadonlyArray<string>>>) =>
  Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === "string" ? encodeURIComponent(value) : value.map((item) => encodeURIComponent(item))
    ])
  )

const bytesOf = (text: string | Uint8Array<ArrayBuffer>) => (typeof text === "string" ? encoder.encode(text) : text)

/** The body of a JSON request under a mutation (none, or a path mutation: the valid body). */
export const applyJson = (valid: unknown, contentType: string, mutation: Mutation | undefined): RequestBody => {
  const validText = JSON.stringify(valid)
  const json = (text: string | Uint8Array<ArrayBuffer>, type: string | null = contentType, transport: Transport = "sized"): RequestBody => ({
    bytes: bytesOf(text),
    contentType: type,
    transport
  })
  if (mutation === undefined || mutation.kind === "path_param") return json(validText)
  switch (mutation.kind) {
    case "replace":
      return json(spliceJson(valid, mutation.path, mutation.value))
    case "add_member":
      return json(spliceJson(valid, mutation.path, mutation.value, mutation.name))
    case "remove_member":
      return json(spliceJson(valid, mutation.path, undefined))
    case "body":
      return json(wholeBody(mutation.body, validText))
    case "content_type":
      return json(validText, mutation.contentType)
    case "oversize":
      return json(padded(valid, mutation.size === "near_limit" ? BODY_LIMIT - 64 : BODY_LIMIT + 1), contentType, mutation.transport)
  }
}

/** The body of a form request under a mutation (or none); `valid` holds percent-encoded values. */
export const applyForm = (valid: Readonly<Record<string, string | ReadonlyArray<string>>>, mutation: Mutation | undefined): RequestBody => {
  const formType = "application/x-www-form-urlencoded"
  const validText = encodeForm(valid)
  const form = (text: string | Uint8Array<ArrayBuffer>, type: string | null = formType, transport: Transport = "sized"): RequestBody => ({
    bytes: bytesOf(text),
    contentType: type,
    transport
  })
  const name = (path: ReadonlyArray<Segment>) => String(path[0] ?? "")
  if (mutation === undefined || mutation.kind === "path_param") return form(validText)
  switch (mutation.kind) {
    case "replace":
      return form(encodeForm({ ...valid, [name(mutation.path)]: mutation.value }))
    case "add_member":
      // A repeated parameter when the name is taken (RFC 6749 §3.1 forbids it), else an unknown one.
      return form(`${validText}&${encodeURIComponent(mutation.name === "" ? name(mutation.path) || "x" : mutation.name)}=${mutation.value}`)
    case "remove_member": {
      const { [name(mutation.path)]: _removed, ...rest } = valid
      return form(encodeForm(rest))
    }
    case "body":
      return form(wholeBody(mutation.body, validText))
    case "content_type":
      return form(validText, mutation.contentType === formType ? "application/json" : mutation.contentType)
    case "oversize":
      return form(`${validText}&fuzz_padding=${"x".repeat((mutation.size === "near_limit" ? BODY_LIMIT - 64 : BODY_LIMIT + 1) - validText.length - 14)}`, formType, mutation.transport)
  }
}

/** A short, printable form of a mutation (long values cut), for failure reports. */
export const describeMutation = (mutation: Mutation): string => {
  const cut = (text: string) => (text.length > 60 ? `${text.slice(0, 40)}…(${text.length} chars)` : text)
  switch (mutation.kind) {
    case "replace":
      return `replace /${mutation.path.join("/")} with ${cut(mutation.value)}`
    case "add_member":
      return `add member ${JSON.stringify(mutation.name)} = ${cut(mutation.value)} at /${mutation.path.join("/")}`
    case "remove_member":
      return `remove /${mutation.path.join("/")}`
    case "body":
      return `body: ${mutation.body}`
    case "content_type":
      return `content-type: ${mutation.contentType ?? "(none)"}`
    case "oversize":
      return `body ${mutation.size.replace("_", " ")} (${mutation.transport})`
    case "path_param":
      return `path {${mutation.name}} = ${cut(mutation.value)}`
  }
}
