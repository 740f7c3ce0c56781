import { type FieldError, toPointer } from "../input/field-error.js"
import { type Path, type RawObject, hasMember } from "./raw.js"

/**
 * Read-only guards: a write may omit a read-only member or repeat the stored value, nothing else.
 * A value of the wrong type is left to the schema (one `invalid_type` fault, not two).
 */

/** One read-only member: its name, the values a write may repeat, and the type the schema expects. */
export interface ReadOnlyMember {
  readonly name: string
  readonly accepted: ReadonlyArray<string | number | null>
  readonly hasExpectedType: (value: unknown) => boolean
  /** For enum members: the write check that explains a value no write may set. */
  readonly checkValue?: (value: unknown, path: Path) => FieldError | undefined
}

/** Type test for string members. */
export const isString = (value: unknown): boolean => typeof value === "string"

/** Type test for integer members. */
export const isInteger = (value: unknown): boolean => typeof value === "number" && Number.isInteger(value)

/** Type test for nullable string members. */
export const isStringOrNull = (value: unknown): boolean => value === null || typeof value === "string"

const describe = (value: string | number | null): string => (typeof value === "string" ? `"${value}"` : String(value))

/** `read_only` faults for members of `document` that differ from what is stored. */
export const checkReadOnly = (
  document: RawObject,
  path: Path,
  members: ReadonlyArray<ReadOnlyMember>
): ReadonlyArray<FieldError> =>
  members.flatMap(({ name, accepted, hasExpectedType, checkValue }) => {
    if (!hasMember(document, name)) return []
    const value = document[name]
    if (!hasExpectedType(value) || accepted.some((candidate) => candidate === value)) return []
    // A value no write may ever set (an unknown or retired enum value) says so, with allowed_values.
    const refused = checkValue?.(value, [...path, name])
    if (refused !== undefined) return [refused]
    const stored = accepted.find((candidate) => candidate !== null)
    return [
      {
        pointer: toPointer([...path, name]),
        code: "read_only",
        detail:
          stored === undefined
            ? `${name} is read-only; omit it.`
            : `${name} is read-only; omit it or send the current value ${describe(stored)}.`
      }
    ]
  })
