import type { OperationExample } from "./operation-examples.js"
import type { OperationObject } from "./operation-shape.js"

type JsonObject = Record<string, unknown>

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

// The example's `{base_url}` as the deployment's base URL, wherever a string holds it.
const atBase = (value: unknown, baseUrl: string): unknown =>
  JSON.parse(JSON.stringify(value ?? null).replaceAll("{base_url}", baseUrl))

const withContentExample = (content: unknown, example: unknown): unknown =>
  isObject(content)
    ? Object.fromEntries(Object.entries(content).map(([type, media]) => [type, isObject(media) ? { ...media, example } : media]))
    : content

const parameterExample = (parameter: JsonObject, example: OperationExample): unknown => {
  const name = typeof parameter.name === "string" ? parameter.name : ""
  if (parameter.in === "path") return example.params?.[name]
  if (parameter.in === "query") return example.query?.[name]
  if (parameter.in === "header" && name.toLowerCase() === "idempotency-key") return example.idempotency_key
  return undefined
}

/**
 * An operation showing its example: on its parameters, its request body (every media type) and
 * its success response, with `{base_url}` read as `baseUrl`.
 */
export const placeExample = (operation: OperationObject, example: OperationExample | undefined, baseUrl: string): OperationObject => {
  if (example === undefined) return operation
  const parameters = (operation.parameters ?? []).map((parameter) => {
    const value = parameterExample(parameter, example)
    return value === undefined ? parameter : { ...parameter, example: value }
  })
  const requestBody = operation.requestBody
  const responses = isObject(operation.responses) ? operation.responses : {}
  const success = responses[String(example.status)]
  return {
    ...operation,
    parameters,
    ...(isObject(requestBody) && example.body !== undefined
      ? { requestBody: { ...requestBody, content: withContentExample(requestBody.content, example.body) } }
      : {}),
    responses: isObject(success)
      ? { ...responses, [example.status]: { ...success, content: withContentExample(success.content, atBase(example.response, baseUrl)) } }
      : responses
  }
}
