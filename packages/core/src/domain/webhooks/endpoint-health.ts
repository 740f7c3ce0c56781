/** How one subscription's endpoint has been doing, as the dashboard shows it. */
export interface EndpointHealth {
  readonly subscriptionId: number
  /** Failed attempts (an error or a non-2xx answer) in the last {@link RECENT_FAILURES_HOURS} hours. */
  readonly recentFailures: number
  /** Since when its deliveries have been failing without a success in between, if they are. */
  readonly failingSince: Date | null
  /** The last delivery that succeeded, if any. */
  readonly lastDeliveredAt: Date | null
}
