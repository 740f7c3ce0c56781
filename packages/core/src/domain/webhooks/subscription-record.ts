import type { SignatureScheme } from "./signature-schemes.js"

/** A webhook subscription as stored; timestamps are UTC text with microseconds. */
export interface SubscriptionRecord {
  readonly id: number
  readonly storeId: number
  readonly topic: string
  readonly url: string
  /** The signing secret: shown by v3 only on creation, by v2 on every read (its contract). */
  readonly secret: string
  readonly meta: Readonly<Record<string, unknown>>
  /** `active`, or `disabled` once its receiver answered 410 or kept failing for five days (a PATCH re-enables it). */
  readonly status: string
  /** Why a disabled subscription stopped: `gone` (410) or `failing`; null while active. */
  readonly disabledReason: string | null
  /** How its deliveries are signed. */
  readonly signatureScheme: SignatureScheme
  readonly createdAt: string
  readonly updatedAt: string
}
