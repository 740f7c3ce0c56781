import { Effect } from "effect"
import { ValidationFailed } from "../../domain/errors.js"
import type { PricingHeaderContext } from "../../domain/pricing/translate-pricing.js"
import type { CurrentPricing, PricingWriteOutcome } from "../../domain/pricing/writes.js"
import type { PricingDecision, StoredPricing } from "./customisers.js"

/** The header context of stored pricing: what the read-only members must equal. */
export const headerOf = (stored: StoredPricing): PricingHeaderContext => ({
  pricingModel: stored.customiser.pricingModel,
  currency: stored.currency,
  customiserId: stored.customiser.id
})

/** Stored pricing as the pure write rules see it. */
export const currentPricingOf = (stored: StoredPricing): CurrentPricing => ({
  header: headerOf(stored),
  content: stored.content,
  lastPricingId: stored.lastPricingId
})

/** A pure outcome as an Effect: the replacement to store, or a 422 naming every fault. */
export const outcomeToEffect = (outcome: PricingWriteOutcome) =>
  outcome.ok
    ? Effect.succeed({
      content: outcome.content,
      legacySpellings: outcome.legacySpellings,
      lastPricingId: outcome.lastPricingId
    })
    : Effect.fail(new ValidationFailed({ code: outcome.code, errors: outcome.errors }))

/** Turns a pure write rule into the decision storage runs under its row lock. */
export const pricingDecision = (
  rule: (body: unknown, current: CurrentPricing) => PricingWriteOutcome,
  body: unknown
): PricingDecision<ValidationFailed> =>
(stored) => outcomeToEffect(rule(body, currentPricingOf(stored)))
