/** The topic of a test event: sent only on request, to one subscription, never chosen by one. */
export const TEST_EVENT_TOPIC = "webhook:test"

/** The body of a `webhook:test` delivery. */
export interface TestEventPayload {
  readonly webhook_test: {
    readonly subscription_id: number
    /** The topic the subscription receives. */
    readonly topic: string
    readonly url: string
  }
}

/** The body of a test event sent to a subscription. */
export const testEventPayload = (subscription: { readonly id: number; readonly topic: string; readonly url: string }): TestEventPayload => ({
  webhook_test: { subscription_id: subscription.id, topic: subscription.topic, url: subscription.url }
})

/**
 * The catalogue's entry for test events: listed so receivers know the topic, though no
 * subscription can choose it.
 */
export const TEST_EVENT_TYPE = {
  topic: TEST_EVENT_TOPIC,
  deprecated: false,
  deprecated_on: null,
  description:
    "Sent only by POST /api/v3/webhook-subscriptions/{webhook_id}/test, to that subscription alone, signed like any other delivery; no subscription can choose it. Body: `webhook_test`.",
  example: testEventPayload({ id: 7, topic: "order:created", url: "https://example.com/hooks/orders" })
} as const
