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
