import { isSqlError } from "effect/sql/SqlError"

// SQLSTATE class 57P: the server is shutting down, crashed, or not yet accepting connections
// (PostgreSQL's errcodes, appendix A). The driver reports these as unknown errors, but they say
// the same as a lost connection: the database is not there just now.
const UNAVAILABLE_STATES: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03"])

const sqlStateOf = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string" ? cause.code : undefined

/** How long a client is asked to wait before retrying while the database is unreachable, in seconds. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5

/**
 * Whether an error says the database cannot be reached (connection refused, reset or timed out,
 * the server restarting) rather than that a statement failed. Such a statement wrote nothing that
 * was acknowledged, and the same request may be sent again.
 */
export const isDatabaseUnreachable = (error: unknown): boolean => {
  if (!isSqlError(error)) return false
  const reason = error.reason
  if (reason._tag === "ConnectionError") return true
  const state = sqlStateOf(reason.cause)
  return state !== undefined && UNAVAILABLE_STATES.has(state)
}
