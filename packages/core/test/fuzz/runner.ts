import fc from "fast-check"
import { escapePointerToken, toPointer } from "../../src/domain/input/field-error.js"
import type { FuzzEntry, Prepared } from "./catalogue.js"
import {
  ALWAYS,
  applyForm,
  applyJson,
  describeMutation,
  formParams,
  isBadStringValue,
  isJsonText,
  isOverflowingNumber,
  type Mutation,
  mutationOf,
  type RequestBody,
  type Segment,
  valueAt
} from "./mutations.js"
import { accepted, type Answer, answerFault } from "./shapes.js"
import type { FuzzWorld } from "./world.js"

/** How many generated bodies each entry receives on top of the structural ones, and the seed (`npm run fuzz` raises the runs). */
export const fuzzSettings = () => ({
  runs: Number(process.env.FUZZ_RUNS ?? "5"),
  seed: Number(process.env.FUZZ_SEED ?? "20261123"),
  report: process.env.FUZZ_REPORT === "1"
})

/** One answer that broke a property, with what was sent. */
export interface Finding {
  readonly entry: string
  readonly mutation: string
  readonly status: number
  readonly fault: string
  readonly excerpt: string
}

/** What one entry received and how it answered. */
export interface EntryStats {
  readonly entry: string
  bodies: number
  readonly byClass: Record<string, number>
  readonly findings: Array<Finding>
}

const fill = (template: string, params: Readonly<Record<string, string>>, raw: ReadonlySet<string>) =>
  template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = params[name] ?? ""
    return raw.has(name) ? value : encodeURIComponent(value)
  })

const streamOf = (bytes: Uint8Array<ArrayBuffer>) =>
  new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      // Several chunks, as a client streaming a large body would send them.
      for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024))
      controller.close()
    }
  })

const bodyOf = (entry: FuzzEntry, prepared: Prepared, mutation: Mutation | undefined): RequestBody | undefined => {
  const bodyKept = mutation === undefined || mutation.kind === "path_param"
  if (bodyKept && prepared.body === undefined) return undefined
  if (entry.encoding === "form") return applyForm(formParams(prepared.body as Record<string, string | ReadonlyArray<string>>), mutation)
  // Bodiless writes get the mutations of an empty JSON object: a body where none belongs.
  return applyJson(prepared.body ?? {}, entry.contentType, mutation)
}

/** Sends an entry's request, spoiled by `mutation` when one is given, and reads the answer. */
export const send = async (world: FuzzWorld, entry: FuzzEntry, prepared: Prepared, mutation?: Mutation): Promise<Answer> => {
  const params = mutation?.kind === "path_param" ? { ...prepared.params, [mutation.name]: mutation.value } : prepared.params
  const path = fill(entry.path, params, new Set(mutation?.kind === "path_param" ? [mutation.name] : []))
  const body = bodyOf(entry, prepared, mutation)
  const headers: Record<string, string> = { ...prepared.headers }
  if (body?.contentType !== undefined && body.contentType !== null) headers["content-type"] = body.contentType
  if (body !== undefined && body.transport === "sized") headers["content-length"] = String(body.bytes.length)
  const init: RequestInit & { duplex?: "half" } = { method: entry.method, headers }
  if (body !== undefined) {
    init.body = body.transport === "chunked" ? streamOf(body.bytes) : body.bytes
    if (body.transport === "chunked") init.duplex = "half"
  }
  const response = await world.app.fetchApp(path, init)
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text: await response.text() }
}

// The fields an answer names: problem `errors[].pointer`s, or the legacy format's dotted keys as pointers.
const namedPointers = (format: FuzzEntry["format"], answer: Answer): ReadonlyArray<string> => {
  try {
    const body: unknown = JSON.parse(answer.text)
    if (body === null || typeof body !== "object") return []
    const errors = (body as { errors?: unknown }).errors
    if (format === "legacy" && errors !== null && typeof errors === "object") {
      return Object.keys(errors).map((key) => `/${key.split(".").map(escapePointerToken).join("/")}`)
    }
    if (!Array.isArray(errors)) return []
    return errors.flatMap((error: unknown) => {
      const pointer = error !== null && typeof error === "object" ? (error as { pointer?: unknown }).pointer : undefined
      return typeof pointer === "string" ? [pointer] : []
    })
  } catch {
    return []
  }
}

// Whether `named` is the field at `pointer`, inside it, or one of its (non-root) parents.
const related = (named: string, pointer: string) =>
  named === pointer || named.startsWith(`${pointer}/`) || (named !== "" && pointer.startsWith(`${named}/`))

// Whether a refusal names the field at `path`: by pointer (problem), dotted key (legacy), or in
// the RFC 6749 `error_description` (OAuth), which has no member for it.
const namesField = (format: FuzzEntry["format"], answer: Answer, path: ReadonlyArray<Segment>): boolean => {
  if (format === "oauth" || format === "oauth-page") {
    const name = [...path].reverse().find((segment) => typeof segment === "string")
    return name !== undefined && answer.text.includes(name)
  }
  const pointer = toPointer(path)
  return namedPointers(format, answer).some((named) => related(named, pointer))
}

/** Whether an entry's body falls under "v3 and operator write bodies refuse members the contract does not define". */
const refusesUnknownMembers = (entry: FuzzEntry) =>
  entry.encoding === "json" && entry.format === "problem" && /^\/(api\/v3|operator)\//.test(entry.path)

/**
 * What is wrong with the answer to a mutated request (docs/input-handling.md): a 5xx or the
 * wrong error format; a NUL, an unpaired surrogate or an overflowing number in a defined field
 * not refused with a 4xx naming that field; an unknown member of a v3 or operator body not
 * refused with a 422 naming it; a body over the limit answered with anything but 413.
 */
export const mutationFault = (entry: FuzzEntry, prepared: Prepared, mutation: Mutation, answer: Answer): string | undefined => {
  const fault = answerFault(entry.format, answer)
  if (fault !== undefined) return fault
  if (mutation.kind === "oversize" && mutation.size === "over_limit" && answer.status !== 413) return `body over the limit answered ${answer.status}, not 413`
  if (mutation.kind === "replace" && entry.encoding === "json" && mutation.path.length > 0) {
    const original = valueAt(prepared.body, mutation.path)
    const spoilt = (typeof original === "string" && isBadStringValue(mutation.value)) ||
      (typeof original === "number" && isOverflowingNumber(mutation.value))
    if (spoilt && accepted(entry.format, answer)) return `accepted ${typeof original === "string" ? "a string holding NUL or an unpaired surrogate" : "an overflowing number"}`
    if (spoilt && entry.format !== "agent" && !namesField(entry.format, answer, mutation.path)) {
      return `refused without naming ${toPointer(mutation.path)}`
    }
  }
  // A member whose value is not JSON (NaN) makes the whole body unreadable: any 400 is right.
  if (mutation.kind === "add_member" && refusesUnknownMembers(entry) && isJsonText(mutation.value)) {
    const pointer = toPointer([...mutation.path, mutation.name])
    const named = namedPointers(entry.format, answer).some((n) => n === pointer || n.startsWith(`${pointer}/`))
    if (answer.status !== 422 || !named) return `unknown member ${JSON.stringify(pointer)} not refused with a 422 naming it`
  }
  return undefined
}

const classOf = (status: number) => `${Math.floor(status / 100)}xx`

const seedOf = (base: number, name: string) => {
  let hash = base | 0
  for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0
  return hash
}

/** What is wrong with the answer to an entry's valid request, if anything. */
export const validFault = (entry: FuzzEntry, answer: Answer): string | undefined =>
  answer.status === entry.success && accepted(entry.format, answer)
    ? undefined
    : `valid request answered ${answer.status}: ${answer.text.slice(0, 300)}`

/**
 * Sends an entry the structural mutations every entry gets, then `runs` generated ones from a
 * fixed seed. Every broken property is recorded rather than thrown, so one run lists every
 * distinct fault of the entry; the caller asserts the list is empty.
 */
export const fuzzEntry = async (world: FuzzWorld, entry: FuzzEntry, settings: ReturnType<typeof fuzzSettings>): Promise<EntryStats> => {
  const stats: EntryStats = { entry: entry.name, bodies: 0, byClass: {}, findings: [] }
  const target = await entry.prepare(world, "mutate")
  const arbitrary = mutationOf({
    body: target.body ?? {},
    pathParams: target.params,
    form: entry.encoding === "form"
  })
  const property = fc.asyncProperty(arbitrary, async (mutation) => {
    const prepared = await entry.prepare(world, "mutate")
    const answer = await send(world, entry, prepared, mutation)
    stats.bodies += 1
    const key = classOf(answer.status)
    stats.byClass[key] = (stats.byClass[key] ?? 0) + 1
    const fault = mutationFault(entry, prepared, mutation, answer)
    if (fault !== undefined) {
      stats.findings.push({ entry: entry.name, mutation: describeMutation(mutation), status: answer.status, fault, excerpt: answer.text.slice(0, 200) })
    }
  })
  // fast-check counts examples among the runs: the structural ones come on top of `runs`.
  await fc.assert(property, {
    numRuns: ALWAYS.length + settings.runs,
    seed: seedOf(settings.seed, entry.name),
    examples: ALWAYS.map((mutation) => [mutation] as [Mutation])
  })
  return stats
}
