import { Data } from "effect"
import type { FieldError } from "./field-error.js"

/**
 * What a pricing translator of `@signcraft/core/domain` throws when its input is not the document
 * it translates (never a `TypeError`): each fault with its JSON pointer.
 */
export class InvalidTranslationInput extends Data.TaggedError("InvalidTranslationInput")<{
  readonly errors: ReadonlyArray<FieldError>
}> {
  override get message(): string {
    return `Not a document this translator reads: ${this.errors.map((error) => `${error.pointer ?? "/"} ${error.detail}`).join("; ")}`
  }
}
