import { describe, expect, it } from "vitest"
import { accepted, answerFault } from "./shapes.js"

const problem = (status: number, extra: Record<string, unknown> = {}) => ({
  status,
  contentType: "application/problem+json",
  text: JSON.stringify({ type: "t", title: "T", status, code: "not_found", detail: "d", request_id: "req_1", ...extra })
})

describe("the error formats the fuzz suite expects", () => {
  it("refuses every 5xx, whatever its body", () => {
    expect(answerFault("problem", problem(500))).toBe("status 500")
    expect(answerFault("agent", { status: 502, contentType: "application/json", text: "{\"jsonrpc\":\"2.0\",\"result\":{}}" })).toBe("status 502")
  })

  it("wants a whole problem document, field faults naming a pointer or parameter", () => {
    expect(answerFault("problem", problem(404))).toBeUndefined()
    expect(answerFault("problem", { ...problem(404), contentType: "application/json" })).toMatch(/content-type/)
    expect(answerFault("problem", problem(404, { request_id: undefined }))).toMatch(/request_id/)
    expect(answerFault("problem", problem(404, { status: 400 }))).toMatch(/differs/)
    const fields = (errors: unknown) => problem(422, { code: "validation_failed", errors })
    expect(answerFault("problem", fields([{ pointer: "/name", code: "required", detail: "d" }]))).toBeUndefined()
    expect(answerFault("problem", fields([{ parameter: "limit", code: "too_small", detail: "d" }]))).toBeUndefined()
    expect(answerFault("problem", fields([{ code: "required", detail: "d" }]))).toMatch(/pointer or parameter/)
    expect(answerFault("problem", fields(undefined))).toMatch(/without errors/)
  })

  it("wants {message, errors} from the previous generation, never a problem document", () => {
    const legacy = (body: unknown) => ({ status: 422, contentType: "application/json", text: JSON.stringify(body) })
    expect(answerFault("legacy", legacy({ message: "m", errors: { name: ["bad"] } }))).toBeUndefined()
    expect(answerFault("legacy", legacy({ message: "m" }))).toMatch(/errors object/)
    expect(answerFault("legacy", legacy({ message: "m", errors: { name: "bad" } }))).toMatch(/list of strings/)
    expect(answerFault("legacy", legacy({ message: "m", errors: {}, type: "t" }))).toMatch(/type/)
  })

  it("wants RFC 6749 errors from OAuth and lets its redirects and pages through", () => {
    const oauth = (status: number, body: unknown) => ({ status, contentType: "application/json", text: JSON.stringify(body) })
    expect(answerFault("oauth", oauth(400, { error: "invalid_request", error_description: "d" }))).toBeUndefined()
    expect(answerFault("oauth", oauth(400, { error: "invalid_request" }))).toBeUndefined()
    expect(answerFault("oauth", oauth(413, { type: "t", code: "payload_too_large" }))).toMatch(/RFC 6749/)
    expect(answerFault("oauth", oauth(400, { error: "x", error_description: 1 }))).toMatch(/error_description/)
    expect(answerFault("oauth", { status: 303, contentType: "", text: "" })).toBeUndefined()
  })

  it("wants a JSON-RPC answer from the agent endpoint for every request", () => {
    const agent = (status: number, body: unknown) => ({ status, contentType: "application/json", text: JSON.stringify(body) })
    const result = { jsonrpc: "2.0", id: 1, result: { isError: true, content: [] } }
    expect(answerFault("agent", agent(200, result))).toBeUndefined()
    expect(answerFault("agent", agent(400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }))).toBeUndefined()
    expect(answerFault("agent", { status: 202, contentType: "", text: "" })).toBeUndefined()
    expect(answerFault("agent", agent(413, { type: "t" }))).toMatch(/JSON-RPC/)
    expect(answerFault("agent", agent(400, result))).toMatch(/HTTP 400/)
    expect(accepted("agent", agent(200, result))).toBe(false)
    expect(accepted("agent", agent(200, { ...result, result: { content: [] } }))).toBe(true)
  })
})
