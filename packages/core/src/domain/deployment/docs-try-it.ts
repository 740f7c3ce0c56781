import { isLoopbackHost } from "../oauth/redirect-uri.js"

/** What decides whether the reference at `/docs` may carry an API key in its try-it console. */
export interface TryItContext {
  readonly environment: "development" | "test" | "production"
  readonly baseUrl: string
}

const isLoopbackUrl = (url: string): boolean => {
  try {
    return isLoopbackHost(new URL(url).hostname)
  } catch {
    // A base URL that does not parse is not known to be loopback.
    return false
  }
}

/**
 * The API key `/docs` fills into its try-it console, as Stripe fills in your test key: only in
 * `development` and only when the base URL is a loopback address, so the page (which anyone who
 * reaches the server can read) never carries a key off the developer's machine.
 */
export const tryItKeyFor = (context: TryItContext, key: string | undefined): string | undefined =>
  key !== undefined && context.environment === "development" && isLoopbackUrl(context.baseUrl) ? key : undefined
