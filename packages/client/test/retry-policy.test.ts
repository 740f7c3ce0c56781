import { describe, expect, it } from "vitest"
import { backoffDelayMs, decideRetry, type AttemptOutcome, parseRetryAfterMs } from "../src/retry-policy.js"

const answer = (status: number, code?: string, retryAfterMs?: number): AttemptOutcome => ({ _tag: "Answer", status, code, retryAfterMs })
const decide = (method: string, outcome: AttemptOutcome, retriesSoFar = 0, random = () => 0.5) =>
  decideRetry({ method, outcome, retriesSoFar, maxRetries: 3, random, backoff: { baseMs: 100, capMs: 1000 } })

describe("retry policy", () => {
  it("retries a GET after a network failure, 429 or 5xx", () => {
    for (const outcome of [{ _tag: "NetworkFailure" } as const, answer(429, "rate_limited"), answer(500), answer(502), answer(503)]) {
      expect(decide("GET", outcome)._tag).toBe("Retry")
    }
  })

  it("repeats a write after a network failure, 5xx or idempotency_key_in_flight, and not after a 429", () => {
    for (const outcome of [{ _tag: "NetworkFailure" } as const, answer(500), answer(503), answer(409, "idempotency_key_in_flight", 1000)]) {
      expect(decide("POST", outcome)._tag).toBe("Retry")
    }
    expect(decide("PUT", answer(429, "rate_limited", 1000))._tag).toBe("Stop")
  })

  it("never retries 400, 401, 403, 404, 409 idempotency_key_conflict or 422", () => {
    for (const method of ["GET", "POST", "PATCH"]) {
      for (const outcome of [answer(400), answer(401), answer(403), answer(404), answer(409, "idempotency_key_conflict"), answer(422)]) {
        expect(decide(method, outcome)).toEqual({ _tag: "Stop" })
      }
    }
  })

  it("stops after maxRetries retries (0: one attempt only)", () => {
    const outcome = answer(503)
    expect(decideRetry({ method: "GET", outcome, retriesSoFar: 0, maxRetries: 0, random: () => 0 })._tag).toBe("Stop")
    expect(decideRetry({ method: "GET", outcome, retriesSoFar: 2, maxRetries: 3, random: () => 0 })._tag).toBe("Retry")
    expect(decideRetry({ method: "GET", outcome, retriesSoFar: 3, maxRetries: 3, random: () => 0 })._tag).toBe("Stop")
  })

  it("backs off exponentially with full jitter under a cap", () => {
    const backoff = { baseMs: 100, capMs: 1000 }
    const almostOne = () => 0.999_999
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, almostOne, backoff))).toEqual([99, 199, 399, 799, 999, 999])
    expect(backoffDelayMs(3, () => 0, backoff)).toBe(0)
    expect(backoffDelayMs(3, () => 0.5, backoff)).toBe(400)
  })

  it("never waits less than the server asked", () => {
    expect(decide("GET", answer(429, "rate_limited", 7000), 0, () => 0.999)).toEqual({ _tag: "Retry", delayMs: 7000 })
    expect(decide("GET", answer(503, undefined, 10), 2, () => 0.5)).toEqual({ _tag: "Retry", delayMs: 200 })
    expect(decide("POST", answer(409, "idempotency_key_in_flight", 2000), 0, () => 0)).toEqual({ _tag: "Retry", delayMs: 2000 })
  })

  it("reads Retry-After as delay-seconds or an HTTP-date, and nothing else", () => {
    expect(parseRetryAfterMs("3", 0)).toBe(3000)
    expect(parseRetryAfterMs(" 0 ", 0)).toBe(0)
    const now = Date.parse("2026-11-23T10:00:00Z")
    expect(parseRetryAfterMs("Mon, 23 Nov 2026 10:00:05 GMT", now)).toBe(5000)
    expect(parseRetryAfterMs("Mon, 23 Nov 2026 09:00:00 GMT", now)).toBe(0)
    for (const bad of [null, undefined, "", "-1", "1.5", "soon", "12abc"]) expect(parseRetryAfterMs(bad, now)).toBeUndefined()
  })
})
