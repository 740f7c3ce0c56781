/**
 * @signcraft/core/domain: signcraft's pure rules (pricing documents, order translation,
 * webhook signatures, analytics windows, enumerations), with no database, no services and
 * no HTTP. Safe to import in a migration script or a webhook receiver.
 */
export * as analytics from "./domain/analytics/index.js"
export * as currency from "./domain/currency.js"
export * from "./domain/enums.js"
export * from "./domain/errors.js"
export * from "./domain/input/field-error.js"
export { applyMergePatch } from "./domain/input/merge-patch.js"
export * as oauth from "./domain/oauth/index.js"
export * as orders from "./domain/orders/index.js"
export * as pricing from "./domain/pricing/index.js"
export * from "./domain/credentials/scopes.js"
export { InvalidTranslationInput } from "./domain/input/translation-input.js"
export * as webhooks from "./domain/webhooks/index.js"
