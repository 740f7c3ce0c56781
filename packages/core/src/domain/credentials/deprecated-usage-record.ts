/** One deprecated operation's use by one API key. */
export interface UsageRecord {
  readonly apiKeyId: number
  readonly operation: string
  readonly count: number
  readonly lastSeenAt: Date
}
