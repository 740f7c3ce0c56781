import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

/**
 * A device cookie (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): issued after a
 * successful sign-in, it names the account and a random device id, signed so it cannot be made
 * up. A sign-in that presents one for the account it signs in to is not held by the lockouts that
 * guessers from elsewhere set off.
 */
export interface DeviceCookie {
  readonly personId: number
  readonly deviceId: string
}

const LABEL = "signcraft sign-in device cookie"

/** The key device cookies are signed with, derived from a deployment secret under its own label. */
export const deviceCookieKey = (deploymentSecret: string): Buffer =>
  createHmac("sha256", deploymentSecret).update(LABEL).digest()

const tagOf = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url")

/** A new cookie value for a person who just signed in. */
export const issueDeviceCookie = (key: Buffer, personId: number): string => {
  const payload = `${personId}.${randomBytes(16).toString("base64url")}`
  return `${payload}.${tagOf(key, payload)}`
}

/** The device a cookie value names, when its signature holds. */
export const readDeviceCookie = (key: Buffer, value: string): DeviceCookie | undefined => {
  const [person, deviceId, tag, ...rest] = value.split(".")
  if (person === undefined || deviceId === undefined || tag === undefined || rest.length > 0) return undefined
  if (!/^[1-9][0-9]{0,15}$/.test(person) || !/^[A-Za-z0-9_-]{22}$/.test(deviceId)) return undefined
  const expected = Buffer.from(tagOf(key, `${person}.${deviceId}`))
  const presented = Buffer.from(tag)
  if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return undefined
  return { personId: Number(person), deviceId }
}
