/**
 * Defensive readers for untrusted, not-yet-validated input. The validator's cross-field rules run
 * on the raw body (not the decoded one) so that a document with schema faults still gets its
 * cross-field faults reported in the same response.
 */

/** A non-array object, as JSON objects arrive. */
export type RawObject = { readonly [key: string]: unknown }

/** A path into a request body. */
export type Path = ReadonlyArray<string | number>

/** True for objects that are not arrays (JSON objects). */
export const isRawObject = (value: unknown): value is RawObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The own member `key` of `value` when `value` is an object, else `undefined` (inherited members never count). */
export const member = (value: unknown, key: string): unknown =>
  isRawObject(value) && Object.hasOwn(value, key) ? value[key] : undefined

/** True when the object has its own member `key`, whatever its value. */
export const hasMember = (value: RawObject, key: string): boolean => Object.hasOwn(value, key)

/** True when a member is present with a value other than null (a field that is "set"). */
export const isSet = (value: unknown): boolean => value !== undefined && value !== null
