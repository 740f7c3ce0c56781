/** A custom integration of a Store: where finished designs are announced, and with which secret. */
export interface IntegrationRecord {
  readonly id: number
  readonly storeId: number
  readonly name: string | null
  readonly createProductUrl: string
  readonly enabled: boolean
  readonly signingSecret: string
  readonly createdAt: string
}
