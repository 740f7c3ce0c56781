/**
 * The path a base URL carries (`/signs` for `https://shop.example/signs`), without a trailing
 * slash: "" when the service owns its origin's root.
 */
export const basePathOf = (baseUrl: string): string => new URL(baseUrl).pathname.replace(/\/+$/, "")

/** A base URL as settings keep it: without a trailing slash, so `baseUrl + path` is always right. */
export const normaliseBaseUrl = (baseUrl: string): string => baseUrl.replace(/\/+$/, "")
