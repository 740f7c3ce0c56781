import type { Scope } from "./scopes.js"

/** What each scope lets a key or a connector do, in the words the consent screen uses. */
export const SCOPE_DESCRIPTIONS: { readonly [S in Scope]: string } = {
  "analytics:read": "See your Store's sales analytics",
  "store:read": "See your Store's name, currency and settings",
  "customisers:read": "See your customisers",
  "pricing:read": "See the pricing of your customisers",
  "pricing:write": "Change the pricing of your customisers",
  "orders:read": "See the orders of your Store",
  "orders:write": "Send orders to your Store",
  "products:read": "See the products of your Store",
  "products:write": "Add products to your Store",
  "webhooks:read": "See your webhook subscriptions and their deliveries",
  "webhooks:write": "Create, change and delete your webhook subscriptions",
  "quotes:read": "See the quote requests shoppers submit"
}
