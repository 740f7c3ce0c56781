/**
 * The error bodies of the two protocols the service speaks besides its own APIs, built in one
 * place: the authorization server's RFC 6749 §5.2 body and the agent endpoint's JSON-RPC 2.0
 * §5.1 error object.
 */

/** RFC 6749 `{error, error_description}`, with `retry_after` on a quota refusal. */
export const oauthErrorBody = (error: string, description: string, retryAfter?: number) => ({
  error,
  error_description: description,
  ...(retryAfter === undefined ? {} : { retry_after: retryAfter })
})

/** A JSON-RPC error answer; `id` is the request's when it had a usable one, else null. */
export const jsonRpcErrorBody = (code: number, message: string, id: unknown = null, data?: unknown) => ({
  jsonrpc: "2.0",
  id: typeof id === "string" || typeof id === "number" ? id : null,
  error: { code, message, ...(data === undefined ? {} : { data }) }
})
