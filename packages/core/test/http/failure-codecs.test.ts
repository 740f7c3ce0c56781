import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  type ApiFailure,
  API_FAILURE_TAGS,
  IdempotencyKeyConflict,
  IdempotencyKeyInFlight,
  IdempotencyKeyRequired,
  InsufficientScope,
  IntegrationCallbackFailed,
  InternalError,
  InvalidCredential,
  InvalidParameter,
  isApiFailure,
  MalformedRequest,
  MethodNotAllowed,
  MissingCredential,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServiceUnavailable,
  UnsupportedMediaType,
  ValidationFailed
} from "../../src/domain/errors.js"
import { legacyAt, problemAt } from "../../src/http/failure-codecs.js"
import { describeFailure, FAILURE_STATUS } from "../../src/presenters/failure-table.js"
import { CurrentRequest, type RequestInfo } from "../../src/http/request-info.js"
import { legacyBody, problemBody } from "../../src/http/respond.js"

// One failure of every tag, with the fields that reach the wire filled in.
const samples: ReadonlyArray<ApiFailure> = [
  new MissingCredential({ kind: "api_key" }),
  new InvalidCredential({ kind: "operator_token", reason: "unknown" }),
  new InsufficientScope({ required: ["pricing:write"], granted: ["pricing:read"] }),
  new NotFound({ resource: "customiser" }),
  new ValidationFailed({ code: "invalid_pricing_model", detail: "bad model", errors: [{ pointer: "/sizes", code: "required", detail: "This field is required." }] }),
  new InvalidParameter({ errors: [{ parameter: "limit", code: "invalid_value", detail: "Must be at most 100." }] }),
  new MalformedRequest({ detail: "The request body is not valid JSON." }),
  new MethodNotAllowed({ allowed: ["GET"] }),
  new PayloadTooLarge({ limitBytes: 1024 }),
  new UnsupportedMediaType(),
  new RateLimited({ retryAfter: 7 }),
  new IdempotencyKeyRequired(),
  new IdempotencyKeyConflict(),
  new IdempotencyKeyInFlight({ retryAfter: 3 }),
  new IntegrationCallbackFailed({ productId: 9, reason: "timeout" }),
  new ServiceUnavailable({ retryAfter: 5 }),
  new InternalError({})
]

const info: RequestInfo = {
  requestId: "req_test",
  generation: "v3",
  baseUrl: "https://api.example",
  selfUrl: "https://api.example/api/v3/x",
  clientIp: "127.0.0.1",
  responseHeaders: new Map(),
  faults: []
}

// The body of an encoded error, whether or not its status also carries headers.
const bodyOf = (encoded: unknown): unknown =>
  typeof encoded === "object" && encoded !== null && "body" in encoded && "headers" in encoded ? encoded.body : encoded

describe("failure codecs", () => {
  it("cover every failure tag", () => {
    expect(samples.map((f) => f._tag).sort()).toEqual([...API_FAILURE_TAGS].sort())
  })

  it.each(samples)("encode $_tag with the generation's one encoder and decode it back to its code", (failure) => {
    const status = FAILURE_STATUS[failure._tag]
    const problem = Schema.encodeUnknownEffect(problemAt(status))(failure).pipe(
      Effect.provideService(CurrentRequest, info),
      Effect.runSync
    )
    expect(bodyOf(problem)).toEqual(problemBody(describeFailure(failure), info))
    const back = Effect.runSync(Schema.decodeUnknownEffect(problemAt(status))(problem))
    expect(isApiFailure(back)).toBe(true)
    expect(describeFailure(back as ApiFailure).code).toBe(describeFailure(failure).code)

    const legacy = Effect.runSync(Schema.encodeUnknownEffect(legacyAt(status))(failure))
    expect(bodyOf(legacy)).toEqual(legacyBody(describeFailure(failure)))
    const legacyBack = Effect.runSync(Schema.decodeUnknownEffect(legacyAt(status))(legacy))
    expect(FAILURE_STATUS[(legacyBack as ApiFailure)._tag]).toBe(status)
  })

  it("carry Retry-After on quota and in-flight answers", () => {
    const encoded = Effect.runSync(Schema.encodeUnknownEffect(problemAt(429))(new RateLimited({ retryAfter: 7 })).pipe(
      Effect.provideService(CurrentRequest, info)
    ))
    expect(encoded).toMatchObject({ headers: { "retry-after": "7" } })
  })

  it("refuse a failure of another status", () => {
    const result = Effect.runSync(Effect.result(Schema.encodeUnknownEffect(problemAt(404))(new RateLimited({ retryAfter: 1 }))))
    expect(result._tag).toBe("Failure")
  })
})
