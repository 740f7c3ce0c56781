/** A customiser as stored: canonical spellings (or whatever older data holds), UTC timestamps with microseconds. */
export interface CustomiserRecord {
  readonly id: number
  readonly storeId: number
  readonly name: string
  readonly pricingModel: string
  readonly productFamily: string
  readonly selectionMode: string
  readonly active: boolean
  readonly createdAt: string
  readonly updatedAt: string
}
