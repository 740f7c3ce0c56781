/**
 * The headers of a pricing read, 200 or 304: its entity tag, and that clients may keep the
 * document but must revalidate it (it is a Store's own, so no shared cache keeps it).
 */
export const pricingReadHeaders = (etag: string): Readonly<Record<string, string>> => ({
  etag,
  "cache-control": "private, no-cache"
})
