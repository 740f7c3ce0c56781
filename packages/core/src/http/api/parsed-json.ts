import { Schema } from "effect"

/**
 * A JSON value handed to the handler exactly as parsed, for bodies a domain validator checks
 * itself (pricing documents). `Schema.Unknown` would not do: its JSON codec checks that the whole
 * body is a JSON value, so a number JSON.parse turned into ±Infinity (`1e400`) was refused with
 * one fault at the root. Passed on, the number reaches the validator, which names its field
 * (operating contract 5.1). The identifier names the body in the OpenAPI document.
 */
export const parsedJson = (identifier: string) =>
  Schema.declare((_input: unknown): _input is unknown => true, {
    identifier,
    // Already JSON: JSON.parse produced it, so there is nothing to encode or check.
    toCodecJson: () => undefined
  })
