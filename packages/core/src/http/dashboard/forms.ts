import { Effect, Result, Schema } from "effect"
import type { HttpServerRequest } from "effect/http"
import { MalformedRequest, ValidationFailed } from "../../domain/errors.js"
import { decodeRequest } from "../../domain/orders/decode.js"
import { SCOPES } from "../../domain/credentials/scopes.js"
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
