import { Cause } from "effect"
import { isApiFailure } from "../domain/errors.js"

/**
 * A 5xx's cause as one log message: the defect's stack, the internal error's cause, or what the
 * integrator answered. Only the log sees these; the answer names none of them.
 */
export const describeFault = (fault: unknown): string => {
  if (Cause.isCause(fault)) return Cause.pretty(fault)
  if (isApiFailure(fault)) {
    if (fault._tag === "InternalError") return fault.cause === undefined ? "internal error (no cause recorded)" : describeFault(fault.cause)
    if (fault._tag === "IntegrationCallbackFailed") {
      return `integration callback failed for product ${fault.productId}: ${fault.reason}`
    }
    return fault._tag
  }
  if (fault instanceof Error) return fault.stack ?? `${fault.name}: ${fault.message}`
  return typeof fault === "string" ? fault : JSON.stringify(fault) ?? String(fault)
}
