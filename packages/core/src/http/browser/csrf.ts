import { timingSafeEqual } from "node:crypto"
import { newSecret } from "../../domain/oauth/tokens.js"

/** How long the anti-forgery cookie of a sign-in form lasts. */
export const CSRF_COOKIE_SECONDS = 60 * 60

/** A fresh anti-forgery token for a sign-in form (double-submitted: a cookie and a hidden field). */
export const newCsrfToken = (): string => newSecret("sc_csrf_")

/** Whether a presented anti-forgery token is the expected one, compared in constant time. */
export const sameSecret = (presented: string, expected: string): boolean => {
  const left = Buffer.from(presented)
  const right = Buffer.from(expected)
  return left.length === right.length && timingSafeEqual(left, right)
}
