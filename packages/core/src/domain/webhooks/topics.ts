import { Schema } from "effect"
import {
  orderCreatedPayload,
  type OrderRecord,
  type ProductRecord,
  productCreatedPayload
} from "../orders/webhook-payloads.js"
import { formSubmittedPayload } from "./form-submission.js"

/** Every topic a subscription can choose (docs/webhooks.md). */
export const WEBHOOK_TOPICS = ["product:created", "order:created", "form:submitted"] as const

/** A topic a subscription can choose. */
export const WebhookTopicSchema = Schema.Literals(WEBHOOK_TOPICS).annotate({ identifier: "WebhookTopic" })

/** One webhook topic. */
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number]

/** Whether a string names a topic the service emits. */
export const isWebhookTopic = (value: string): value is WebhookTopic =>
  (WEBHOOK_TOPICS as ReadonlyArray<string>).includes(value)

/** One entry of the event-type catalogue. */
export interface EventType {
  readonly topic: WebhookTopic
  readonly deprecated: boolean
  /** ISO date the topic was deprecated on, or null. */
  readonly deprecated_on: string | null
  /** Opens with `Deprecated.` when the topic is deprecated. */
  readonly description: string
  /** The body of a delivery of this topic, with sample values. */
  readonly example: object
}

const SAMPLE_TIME = new Date("2026-03-01T12:00:00.000Z")

const sampleProduct: ProductRecord = {
  id: 1001,
  title: "Custom neon sign: Open Late",
  description: "Pink neon, 60 cm wide",
  descriptionHtml: "<p>Pink neon, 60 cm wide</p>",
  externalId: "gid://shop/Product/555",
  externalData: {},
  price: 24900,
  comparePrice: 29900,
  customiserId: 42,
  logoUploadId: null,
  productImageUrl: "https://cdn.example.com/designs/1001/preview.png",
  uploads: [{
    url: "https://cdn.example.com/designs/1001/preview.png",
    type: "product_image",
    path: "designs/1001/preview.png"
  }],
  createdAt: SAMPLE_TIME,
  updatedAt: SAMPLE_TIME
}

const sampleAddress = {
  firstName: "Ada",
  lastName: "Lovelace",
  company: null,
  address1: "1 Analytical Way",
  address2: null,
  city: "London",
  province: "Greater London",
  postcode: "N1 9GU",
  country: "GB",
  phone: null,
  email: "ada@example.com"
}

const sampleOrder: OrderRecord = {
  id: 5001,
  orderNumber: 17,
  storeOrderId: "gid://shop/Order/777",
  storeOrderNumber: "#1017",
  totalAmount: 27400,
  appTotal: 24900,
  currency: "USD",
  shippingMethod: "Standard",
  billingAddress: sampleAddress,
  shippingAddress: sampleAddress,
  customer: { firstName: "Ada", lastName: "Lovelace", phone: null, email: "ada@example.com", externalId: "cust_1" },
  products: [sampleProduct],
  createdAt: SAMPLE_TIME,
  updatedAt: SAMPLE_TIME
}

const sampleSubmission = formSubmittedPayload({
  submissionNumber: 1,
  formId: 42,
  customiser: { id: 42, name: "Neon sign quote", createdAt: SAMPLE_TIME, updatedAt: SAMPLE_TIME },
  responses: [
    { field_id: "email", name: "Email", input_type: "EMAIL", value: "ada@example.com" },
    { field_id: "message", name: "Message", input_type: "TEXTAREA", value: "Can you do 2 m wide?" }
  ],
  createdAt: SAMPLE_TIME
})

/**
 * The event-type catalogue (`GET /api/v3/webhook-event-types`). A deprecated topic keeps
 * delivering exactly like a current one; only this flag and its description say otherwise.
 */
export const EVENT_TYPES: ReadonlyArray<EventType> = [
  {
    topic: "product:created",
    deprecated: false,
    deprecated_on: null,
    description:
      "A shopper finished a design: the product was recorded. Body: `product`. Integration receivers answer 200 with `{external_id}`.",
    example: productCreatedPayload(sampleProduct)
  },
  {
    topic: "order:created",
    deprecated: false,
    deprecated_on: null,
    description: "The service recorded a completed order of the Store. Body: `order`.",
    example: orderCreatedPayload(sampleOrder)
  },
  {
    topic: "form:submitted",
    deprecated: true,
    deprecated_on: "2026-08-24",
    description:
      "Deprecated. Deprecated on 24 August 2026; still fires on every new form submission with an unchanged payload, no removal date. A shopper submitted a form. Body: `form_submission`, which has no stable id: read quotes with GET /api/v3/quotes and deduplicate on the quote id.",
    example: sampleSubmission
  }
]

/** The sample body of a topic. */
export const sampleEventPayload = (topic: WebhookTopic): object => {
  const entry = EVENT_TYPES.find((t) => t.topic === topic)
  if (entry === undefined) throw new Error(`no catalogue entry for ${topic}`)
  return entry.example
}
