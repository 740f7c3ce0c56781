import type { V3Artwork, V3Customisation } from "./v3-product.js"

/**
 * Where a product row came from: a v3 write or import (`product`), a shopper's finished design
 * (`design`, announced to the integration), or an unversioned product-cache row (`legacy`:
 * kept for the previous generation, never counted by analytics, never referable from v3).
 */
export type ProductKind = "product" | "design" | "legacy"

/** What a product carries beyond its columns (kept whole in one jsonb document). */
export interface ProductDetails {
  readonly customisations?: ReadonlyArray<V3Customisation>
  readonly artwork?: V3Artwork
  readonly width_cm?: number
  readonly height_cm?: number
  readonly product_image_url?: string
  readonly description_html?: string
  /** Unversioned product sync fields with no v3 counterpart, kept as received. */
  readonly legacy?: Readonly<Record<string, unknown>>
}

/** The fields of a new product. */
export interface NewProduct {
  readonly kind: ProductKind
  readonly customiserId: number | null
  readonly integrationId: number | null
  readonly storeProductId: string | null
  readonly title: string
  readonly description: string | null
  readonly priceAmount: number
  readonly comparePrice: number | null
  readonly currency: string
  /** A stored json document with the wire's member names. */
  readonly details: ProductDetails
}

/** A product as stored. */
export interface StoredProduct extends NewProduct {
  readonly id: number
  readonly storeId: number
  readonly externalId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}
