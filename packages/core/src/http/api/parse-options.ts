import { HttpApi } from "effect/http-api"

/**
 * How a group's request bodies are decoded. v3 and operator bodies refuse members the
 * API does not define (docs/input-handling.md), so a misspelt member is a 422
 * `unknown_field` instead of silently dropped data; the previous generation's bodies keep
 * ignoring them, as they always did (the API-wide default in `index.ts`). Every fault is reported, not just the first.
 */
export const refuseUnknownMembers = [HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "error" }] as const

