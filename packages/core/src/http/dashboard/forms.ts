import { Effect, Result, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import { MalformedRequest, ValidationFailed } from "../../domain/errors.js"
import { decodeRequest } from "../../domain/orders/decode.js"
import type { FieldError } from "../../domain/input/field-error.js"
import { SCOPES } from "../../domain/credentials/scopes.js"
import type { RecoveryWindow } from "../../services/webhooks/replay.js"
import { sameSecret } from "../browser/csrf.js"
import { readFormBody } from "../browser/form-body.js"
import type { Viewer } from "./layout.js"

/** The anti-forgery token every signed-in form posts. */
const CsrfField = { csrf_token: Schema.String }

/** The sign-in form. */
export const SignInForm = Schema.Struct({ ...CsrfField, email: Schema.String, password: Schema.String })

/** A form that only confirms an action (revoke, resend, rotate, sign out). */
export const ActionForm = Schema.Struct(CsrfField)

/** The new-key form: a mode and at least one scope. */
export const CreateKeyForm = Schema.Struct({
  ...CsrfField,
  mode: Schema.Literals(["test", "live"]),
  scope: Schema.Array(Schema.Literals(SCOPES)).check(Schema.isMinLength(1))
})

/** A `datetime-local` value (minutes, optionally seconds), which the dashboard reads as UTC like every instant it shows. */
export const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/

/** The recovery form: a window's start and, optionally (empty when not given), its end. */
export const RecoverForm = Schema.Struct({
  ...CsrfField,
  since: Schema.String.check(Schema.isPattern(UTC_DATE_TIME, { expected: "a date and time such as 2026-11-21T14:00" })),
  until: Schema.optionalKey(Schema.String)
})

// A datetime-local value as an instant in UTC, or undefined when it names no real time (30 Feb).
const utcInstantOf = (value: string): Date | undefined => {
  const instant = new Date(`${value}Z`)
  const [day = "", time = ""] = value.split("T")
  // Date rolls an impossible day over into the next month; the round trip catches it.
  return Number.isNaN(instant.getTime()) || instant.toISOString().slice(0, 10) !== day || time === "" ? undefined : instant
}

/**
 * The window a recovery form names: `since` and, when filled in, `until`, read as UTC; each fault
 * named by its field (an impossible date, or an end not after the start).
 */
export const recoveryWindowOf = (form: { readonly since: string; readonly until?: string }): Result.Result<RecoveryWindow, ReadonlyArray<FieldError>> => {
  const since = utcInstantOf(form.since)
  const untilText = form.until?.trim() ?? ""
  const until = untilText === "" ? undefined : UTC_DATE_TIME.test(untilText) ? utcInstantOf(untilText) : undefined
  const errors: Array<FieldError> = []
  if (since === undefined) errors.push({ pointer: "/since", code: "invalid_value", detail: "Not a real date and time." })
  if (untilText !== "" && until === undefined) {
    errors.push({ pointer: "/until", code: "invalid_value", detail: "Not a date and time such as 2026-11-21T14:00." })
  }
  if (since !== undefined && until !== undefined && until.getTime() <= since.getTime()) {
    errors.push({ pointer: "/until", code: "invalid_value", detail: "Must be later than since." })
  }
  return since === undefined || errors.length > 0 ? Result.fail(errors) : Result.succeed({ since, until })
}

/** The fields a form schema reads as lists: every value of a repeated field (checkboxes). */
const LIST_FIELDS: ReadonlySet<string> = new Set(["scope"])

// A form's fields as the schema reads them: each once, except the lists.
const recordOf = (params: URLSearchParams): Record<string, string | ReadonlyArray<string>> => {
  const record: Record<string, string | ReadonlyArray<string>> = {}
  for (const name of new Set(params.keys())) {
    record[name] = LIST_FIELDS.has(name) ? params.getAll(name) : (params.get(name) ?? "")
  }
  for (const name of LIST_FIELDS) record[name] ??= []
  return record
}

const forgedForm = new MalformedRequest({
  detail: "The form's anti-forgery token is missing or stale. Go back, reload the page and try again."
})

/** A posted form decoded by `schema`: 400 when it is not a form, 422 naming each faulty field. */
export const readForm = <S extends Schema.Codec<unknown, unknown>>(request: HttpServerRequest.HttpServerRequest, schema: S) =>
  Effect.gen(function*() {
    const body = yield* readFormBody(request)
    if (Result.isFailure(body)) return yield* new MalformedRequest({ detail: body.failure })
    const decoded = decodeRequest(schema)(recordOf(body.success))
    if (Result.isFailure(decoded)) return yield* new ValidationFailed({ errors: decoded.failure })
    return decoded.success as S["Type"]
  })

/** A signed-in form decoded by `schema`, refused (400) unless it carries the viewer's anti-forgery token. */
export const readSignedInForm = <S extends Schema.Codec<unknown, unknown>>(
  request: HttpServerRequest.HttpServerRequest,
  schema: S,
  viewer: Viewer
) =>
  Effect.gen(function*() {
    const body = yield* readFormBody(request)
    if (Result.isFailure(body)) return yield* new MalformedRequest({ detail: body.failure })
    // The token is checked before anything else of the form is read or reported.
    if (!sameSecret(body.success.get("csrf_token") ?? "", viewer.csrfToken)) return yield* forgedForm
    const decoded = decodeRequest(schema)(recordOf(body.success))
    if (Result.isFailure(decoded)) return yield* new ValidationFailed({ errors: decoded.failure })
    return decoded.success as S["Type"]
  })
