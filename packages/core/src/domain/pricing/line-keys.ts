import { type FieldError, toPointer } from "../input/field-error.js"
import { type Path, type RawObject, isRawObject, member } from "./raw.js"
import { forEachBasePricingRow, forEachPriceListRow, rowPath } from "./rows.js"

/** Highest line count a size can have (`line_limit` is 1 to 10), hence the last per-line key. */
export const MAX_LINES = 10

/** Keys a per-line object may use: `line_1` to `line_10`. */
export const LINE_KEYS: ReadonlyArray<string> = Array.from({ length: MAX_LINES }, (_, index) => `line_${index + 1}`)

const lineKeySet = new Set(LINE_KEYS)

const checkPerLineObject = (
  row: RawObject,
  name: string,
  at: () => Path,
  faults: Array<FieldError>
): void => {
  const value = member(row, name)
  if (!isRawObject(value)) return
  for (const key of Object.keys(value)) {
    if (lineKeySet.has(key)) continue
    faults.push({
      pointer: toPointer([...at(), name, key]),
      code: "invalid_key",
      detail: `Per-line amounts are keyed line_1 to line_${MAX_LINES}; "${key}" is not a line key.`
    })
  }
}

/** Faults for per-line objects whose keys are not `line_1`..`line_10`, anywhere in the raw document. */
export const checkLineKeys = (document: RawObject, base: Path): ReadonlyArray<FieldError> => {
  const faults: Array<FieldError> = []
  forEachBasePricingRow(document, (row, index) => {
    checkPerLineObject(row, "base_price", () => rowPath(base, undefined, index), faults)
  })
  forEachPriceListRow(document, (row, list, index) => {
    checkPerLineObject(row, "base_price", () => rowPath(base, list, index), faults)
    checkPerLineObject(row, "letter_price", () => rowPath(base, list, index), faults)
  })
  return faults
}
