import { createHash, randomBytes } from "node:crypto"

/** Token and code lifetimes, as docs/agent.md lists them. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 10 * 60
/** Access tokens live 60 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60
/** Refresh tokens live 30 days and are replaced on every use. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60

/** An opaque secret with 256 bits of entropy, prefixed to tell its kind in logs and support. */
export const newSecret = (prefix: "sc_code_" | "sc_rt_" | "sc_sess_" | "sc_csrf_" | "sc_client_"): string =>
  prefix + randomBytes(32).toString("base64url")

/** The stored form of a high-entropy secret: one SHA-256 pass is enough. */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex")
