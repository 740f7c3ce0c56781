import { PROBLEM_CODES, type ProblemCode } from "@signcraft/core/api"

/**
 * A problem `code`: one the service documents, or one added later (v3 grows compatibly,
 * and clients must tolerate what they do not know), or `unexpected_response` for a non-2xx
 * answer that was not a problem document at all (a proxy's error page, say).
 */
// `string & Record<never, never>` keeps the known codes in editor completions while admitting any string.
export type SigncraftProblemCode = ProblemCode | "unexpected_response" | (string & Record<never, never>)

/** One `errors[]` item; unknown members are kept as sent. */
export interface ProblemFieldError {
  readonly pointer?: string
  readonly parameter?: string
  readonly code: string
  readonly detail?: string
  readonly allowed_values?: ReadonlyArray<string>
  readonly [member: string]: unknown
}

/** Whether `code` is one of the problem codes this version of the client knows. */
export const isKnownProblemCode = (code: string): code is ProblemCode => (PROBLEM_CODES as ReadonlyArray<string>).includes(code)

/** What a non-2xx answer said, read from its problem document (RFC 9457). */
export interface ProblemFields {
  readonly status: number
  readonly code: SigncraftProblemCode
  readonly detail: string
  readonly requestId: string | undefined
  readonly errors: ReadonlyArray<ProblemFieldError>
  /** Seconds to wait: the `Retry-After` header, else the body's `retry_after`. */
  readonly retryAfter: number | undefined
  readonly requiredScopes: ReadonlyArray<string>
  readonly grantedScopes: ReadonlyArray<string>
  /** The whole body as received, unknown members included. */
  readonly body: unknown
  /** The answer's headers (`Deprecation` and `Sunset` on previous-generation paths, say). */
  readonly headers: Headers
}

/** A v3 answer outside 2xx, as the rejection of `SigncraftClient.request`. */
export class SigncraftProblem extends Error implements ProblemFields {
  override readonly name = "SigncraftProblem"
  readonly status: number
  readonly code: SigncraftProblemCode
  readonly detail: string
  readonly requestId: string | undefined
  readonly errors: ReadonlyArray<ProblemFieldError>
  readonly retryAfter: number | undefined
  readonly requiredScopes: ReadonlyArray<string>
  readonly grantedScopes: ReadonlyArray<string>
  readonly body: unknown
  readonly headers: Headers

  constructor(fields: ProblemFields) {
    super(`${fields.status} ${fields.code}: ${fields.detail}`)
    this.status = fields.status
    this.code = fields.code
    this.detail = fields.detail
    this.requestId = fields.requestId
    this.errors = fields.errors
    this.retryAfter = fields.retryAfter
    this.requiredScopes = fields.requiredScopes
    this.grantedScopes = fields.grantedScopes
    this.body = fields.body
    this.headers = fields.headers
  }
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const stringOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

const stringsOf = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []

const fieldErrorsOf = (value: unknown): ReadonlyArray<ProblemFieldError> =>
  Array.isArray(value)
    ? value.filter((item): item is ProblemFieldError => isRecord(item) && typeof item.code === "string")
    : []

/** The body's `retry_after` when it is a whole number of seconds. */
export const bodyRetryAfter = (body: unknown): number | undefined => {
  const value = isRecord(body) ? body.retry_after : undefined
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

/**
 * Reads a non-2xx answer. Only `status` is certain: every other member is read when present
 * and well-typed, and ignored otherwise, so a proxy's page or a newer server never breaks it.
 * A previous-generation error (`{message, errors}`, spec Errors rule 5) has no code: its
 * `message` becomes the detail, and its field-keyed `errors` stay in `body`.
 */
export const problemOf = (status: number, body: unknown, retryAfterSeconds: number | undefined, headers: Headers): SigncraftProblem => {
  const document = isRecord(body) ? body : {}
  const code = stringOf(document.code)
  return new SigncraftProblem({
    status,
    code: code ?? "unexpected_response",
    detail: stringOf(document.detail) ?? stringOf(document.message) ?? stringOf(document.title) ?? `HTTP ${status}`,
    requestId: stringOf(document.request_id) ?? headers.get("x-request-id") ?? undefined,
    errors: fieldErrorsOf(document.errors),
    retryAfter: retryAfterSeconds,
    requiredScopes: stringsOf(document.required_scopes),
    grantedScopes: stringsOf(document.granted_scopes),
    body,
    headers
  })
}
