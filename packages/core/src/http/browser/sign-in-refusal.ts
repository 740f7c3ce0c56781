import { MAX_EMAIL_LENGTH, type SignInRefusal } from "../../services/oauth/sessions.js"

/** How a sign-in form words a refusal, and the status (and `Retry-After`) it answers with. */
export interface RefusalWording {
  readonly message: string
  readonly status?: number
  readonly retryAfter?: number
}

/** What a sign-in form (consent screen or dashboard) says of a refusal. */
export const signInRefusal = (refusal: SignInRefusal): RefusalWording => {
  switch (refusal._tag) {
    case "BadCredentials":
      return { message: "The email or password is incorrect." }
    case "InvalidEmail":
      return { message: `An email has at most ${MAX_EMAIL_LENGTH} characters.`, status: 400 }
    case "TooManyAttempts":
      return { message: "Too many failed sign-ins. Wait a few minutes and try again.", status: 429, retryAfter: refusal.retryAfterSeconds }
    case "Busy":
      return { message: "The service is busy signing other people in. Try again in a moment.", status: 429, retryAfter: refusal.retryAfterSeconds }
  }
}
