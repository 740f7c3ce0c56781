/**
 * @signcraft/adapters: mount the signcraft web handler in a host server. The core is a
 * web-standard `(Request) => Promise<Response>`; each adapter only converts to and from it.
 * No adapter imports its framework: the framework objects are described structurally.
 */
export { signcraftFastify, type FastifyAdapterOptions, type FastifyInstanceLike, type FastifyReplyLike, type FastifyRequestLike } from "./fastify.js"
export { signcraftHono, type HonoAdapterOptions, type HonoContextLike } from "./hono.js"
export {
  signcraftNext,
  toNextRouteHandlers,
  type NextAdapterOptions,
  type NextRouteHandler,
  type NextRouteHandlers,
  type SigncraftNextOptions
} from "./next.js"
export type { RequestLogOption } from "./request-log.js"
export { toNodeListener, type NodeListenerOptions, type NodeRequest } from "./node.js"
export { BodyAlreadyConsumed } from "./node-request.js"
export type { HandlerContext, WebHandler } from "./web-handler.js"
export { type FastifyParserHost, type FastifyWebhookRequest, keepRawJsonBody, receiveFastifyWebhook } from "./webhooks/fastify.js"
export { type NodeWebhookRequest, receiveNodeWebhook } from "./webhooks/node.js"
export {
  RawBodyUnavailable,
  type VerifiedDelivery,
  type WebhookReceiverOptions,
  WebhookVerificationFailed
} from "./webhooks/verify-delivery.js"
export { type HonoWebhookContext, receiveHonoWebhook, receiveWebWebhook } from "./webhooks/web.js"
