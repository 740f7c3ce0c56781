/**
 * The error formats of each generation (docs/api.md, docs/input-handling.md), as checks that
 * name what is wrong with an answer, or answer undefined when it is right.
 */

/**
 * Which error format an endpoint answers in. `oauth-page`: the authorization endpoint's forms,
 * which people fill in, answer an error as RFC 6749 JSON or as the form's HTML page showing it.
 */
export type ErrorFormat = "problem" | "legacy" | "oauth" | "oauth-page" | "agent"

/** An answer as the suite read it: status, content type and the body text. */
export interface Answer {
  readonly status: number
  readonly contentType: string
  readonly text: string
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value)

// Problem codes whose answers are about fields or parameters, so each fault must name one.
const FIELD_FAULT_CODES = new Set(["validation_failed", "invalid_parameter"])

const problemFault = (answer: Answer): string | undefined => {
  if (!answer.contentType.startsWith("application/problem+json")) return `content-type ${answer.contentType || "(none)"}, not application/problem+json`
  const body = parsed(answer.text)
  if (!isRecord(body)) return "body is not a JSON object"
  for (const member of ["type", "title", "code", "detail", "request_id"]) {
    if (typeof body[member] !== "string") return `problem member ${member} missing or not a string`
  }
  if (body.status !== answer.status) return `problem status ${String(body.status)} differs from the HTTP status`
  if (FIELD_FAULT_CODES.has(String(body.code))) {
    const errors = body.errors
    if (!Array.isArray(errors) || errors.length === 0) return `${String(body.code)} without errors[]`
    const unnamed = errors.find((e) => !isRecord(e) || (typeof e.pointer !== "string" && typeof e.parameter !== "string"))
    if (unnamed !== undefined) return `errors[] item without pointer or parameter: ${JSON.stringify(unnamed)}`
  }
  return undefined
}

const legacyFault = (answer: Answer): string | undefined => {
  const body = parsed(answer.text)
  if (!isRecord(body)) return "body is not a JSON object"
  if (typeof body.message !== "string") return "legacy error without a message"
  if (!isRecord(body.errors)) return "legacy error without an errors object"
  const bad = Object.entries(body.errors).find(([, list]) => !Array.isArray(list) || !list.every((item) => typeof item === "string"))
  if (bad !== undefined) return `legacy errors.${bad[0]} is not a list of strings`
  if ("type" in body) return "legacy error carries a problem document's type"
  return undefined
}

const oauthFault = (answer: Answer): string | undefined => {
  const body = parsed(answer.text)
  if (!isRecord(body) || typeof body.error !== "string") return `not an RFC 6749 error body: ${answer.text.slice(0, 120)}`
  if ("error_description" in body && typeof body.error_description !== "string") return "error_description is not a string"
  return undefined
}

const jsonRpcFault = (answer: Answer): string | undefined => {
  // A message without an id is a notification: accepted with 202 and no body (MCP Streamable HTTP).
  if (answer.status === 202 && answer.text === "") return undefined
  const body = parsed(answer.text)
  if (!isRecord(body) || body.jsonrpc !== "2.0") return `not a JSON-RPC message: ${answer.text.slice(0, 120)}`
  if (isRecord(body.result)) {
    return answer.status === 200 ? undefined : `JSON-RPC result with HTTP ${answer.status}`
  }
  const error = body.error
  if (!isRecord(error) || typeof error.code !== "number" || typeof error.message !== "string") return "JSON-RPC message without result or error"
  return undefined
}

/**
 * What is wrong with an answer to a fuzzed request, if anything: a 5xx, or an error (and for
 * the agent, any answer) outside the generation's format.
 */
export const answerFault = (format: ErrorFormat, answer: Answer): string | undefined => {
  if (answer.status >= 500) return `status ${answer.status}`
  if (format === "agent") return jsonRpcFault(answer)
  if (answer.status < 400) return undefined
  switch (format) {
    case "problem":
      return problemFault(answer)
    case "legacy":
      return legacyFault(answer)
    case "oauth":
      return oauthFault(answer)
    case "oauth-page":
      return answer.contentType.startsWith("text/html") && answer.text.startsWith("<!doctype html>") ? undefined : oauthFault(answer)
  }
}

/** Whether an answer accepted the request: a 2xx or 3xx, and for the agent a result that is not an error. */
export const accepted = (format: ErrorFormat, answer: Answer): boolean => {
  if (format !== "agent") return answer.status < 400
  const body = parsed(answer.text)
  return answer.status === 200 && isRecord(body) && isRecord(body.result) && body.result.isError !== true
}
