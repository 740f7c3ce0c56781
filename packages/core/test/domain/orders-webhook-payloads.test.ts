import { describe, expect, it } from "vitest"
import type { OrderRecord, ProductRecord } from "../../src/domain/orders/index.js"
import { orderCreatedPayload, productCreatedPayload, toLegacyTimestamp } from "../../src/domain/orders/index.js"

const created = new Date("2026-03-01T12:34:56.789Z")
const updated = new Date("2026-03-02T00:00:00.000Z")

const product: ProductRecord = {
  id: 501,
  title: "Neon: Hello",
  description: "Pink neon",
  descriptionHtml: "<p>Pink neon</p>",
  externalId: "gid://shop/Product/9",
  externalData: { handle: "neon-hello" },
  price: 15900,
  comparePrice: 17900,
  customiserId: 12,
  logoUploadId: null,
  productImageUrl: "https://cdn.example.com/p.png",
  uploads: [{ url: "https://cdn.example.com/p.png", type: "product_image", path: "uploads/p.png" }],
  createdAt: created,
  updatedAt: updated
}

describe("toLegacyTimestamp", () => {
  it("writes microseconds and Z", () => {
    expect(toLegacyTimestamp(created)).toBe("2026-03-01T12:34:56.789000Z")
  })
})

describe("productCreatedPayload", () => {
  it("wraps the documented product fields under product, uploads without path", () => {
    expect(productCreatedPayload(product)).toEqual({
      product: {
        product_id: 501,
        title: "Neon: Hello",
        description: "Pink neon",
        description_html: "<p>Pink neon</p>",
        external_id: "gid://shop/Product/9",
        external_data: { handle: "neon-hello" },
        price: 15900,
        compare_price: 17900,
        customiser_id: 12,
        logo_upload_id: null,
        product_image_url: "https://cdn.example.com/p.png",
        uploads: [{ url: "https://cdn.example.com/p.png", type: "product_image" }],
        created_at: "2026-03-01T12:34:56.789000Z",
        updated_at: "2026-03-02T00:00:00.000000Z"
      }
    })
  })

  it("keeps string fields strings and reports a missing compare price as the price", () => {
    const payload = productCreatedPayload({
      ...product,
      description: null,
      descriptionHtml: null,
      externalId: null,
      comparePrice: null,
      logoUploadId: 77
    })
    expect(payload.product).toMatchObject({
      description: "",
      description_html: "",
      external_id: "",
      compare_price: 15900,
      logo_upload_id: 77
    })
  })
})

describe("orderCreatedPayload", () => {
  const order: OrderRecord = {
    id: 900,
    orderNumber: 1042,
    storeOrderId: "order-77",
    storeOrderNumber: "#77",
    totalAmount: 20900,
    appTotal: 15900,
    currency: "GBP",
    shippingMethod: "Express",
    billingAddress: {
      firstName: "Ada", lastName: "Lovelace", company: null, address1: "1 Main St", address2: null, city: "London",
      province: "Greater London", postcode: "N1 1AA", country: "GB", phone: "+44", email: "ada@example.com"
    },
    shippingAddress: null,
    customer: { firstName: "Ada", lastName: "Lovelace", phone: null, email: "ada@example.com", externalId: "cust-1" },
    products: [product],
    createdAt: created,
    updatedAt: updated
  }

  it("wraps the documented order fields under order", () => {
    const payload = orderCreatedPayload(order)
    expect(payload.order).toMatchObject({
      order_id: 900,
      order_number: 1042,
      external_order_number: "#77",
      external_id: "order-77",
      order_total: 20900,
      app_total: 15900,
      currency: "GBP",
      shipping_line: "Express",
      created_at: "2026-03-01T12:34:56.789000Z",
      updated_at: "2026-03-02T00:00:00.000000Z"
    })
    expect(Object.keys(payload)).toEqual(["order"])
  })

  it("renames province to state and stamps addresses with the order's times", () => {
    expect(orderCreatedPayload(order).order.billing_address).toEqual({
      first_name: "Ada", last_name: "Lovelace", company: null, address_1: "1 Main St", address_2: null,
      city: "London", state: "Greater London", postcode: "N1 1AA", country: "GB", phone: "+44",
      email: "ada@example.com", created_at: "2026-03-01T12:34:56.789000Z", updated_at: "2026-03-02T00:00:00.000000Z"
    })
  })

  it("sends an all-null address and customer when none is recorded", () => {
    const payload = orderCreatedPayload({ ...order, customer: null, storeOrderId: null, storeOrderNumber: null })
    expect(payload.order.shipping_address).toMatchObject({ first_name: null, address_1: null, state: null, email: null })
    expect(payload.order.customer).toEqual({
      first_name: null, last_name: null, phone: null, email: null, external_id: null,
      created_at: "2026-03-01T12:34:56.789000Z", updated_at: "2026-03-02T00:00:00.000000Z"
    })
    expect(payload.order.external_id).toBe("")
    expect(payload.order.external_order_number).toBe("")
  })

  it("maps the customer", () => {
    expect(orderCreatedPayload(order).order.customer).toMatchObject({
      first_name: "Ada", last_name: "Lovelace", phone: null, email: "ada@example.com", external_id: "cust-1"
    })
  })

  it("includes products with upload paths", () => {
    const [item] = orderCreatedPayload(order).order.products
    expect(item).toEqual({
      ...productCreatedPayload(product).product,
      uploads: [{ url: "https://cdn.example.com/p.png", type: "product_image", path: "uploads/p.png" }]
    })
  })
})
