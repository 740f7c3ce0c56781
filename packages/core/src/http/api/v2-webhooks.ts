import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AnswerCarriesSecret, RequiredScope } from "../annotations.js"
import { LegacyApiKeyAuth, LegacyRequestFailures } from "../middleware/definitions.js"
import { legacyGeneration } from "./legacy-generation.js"
import { WebhookTopicSchema } from "../../domain/webhooks/topics.js"
import { ResourceIdParam } from "../resource-id.js"

/** The v2 webhook shape: the same subscriptions as v3, with the secret on every read. */
export const WebhookV2 = Schema.Struct({
  webhook_id: Schema.Int,
  topic: Schema.String,
  url: Schema.String,
  status: Schema.String,
  secret: Schema.String,
  meta: Schema.Record(Schema.String, Schema.Unknown),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "WebhookV2" })

/** Body of v2 create and replace. */
export const WebhookWriteV2 = Schema.Struct({
  topic: WebhookTopicSchema,
  url: Schema.String,
  meta: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)))
})

const params = { webhook_id: ResourceIdParam("webhook") }
const single = Schema.Struct({ webhook: WebhookV2 })

/** Previous generation (deprecated): webhooks in the v2 shape. */
export class V2WebhooksApi extends HttpApiGroup.make("v2Webhooks")
  .add(
    HttpApiEndpoint.get("list", "/webhooks", { success: Schema.Struct({ webhooks: Schema.Array(WebhookV2) }) })
      .annotate(RequiredScope, "webhooks:read")
      .annotate(AnswerCarriesSecret, true),
    HttpApiEndpoint.post("create", "/webhooks", { payload: WebhookWriteV2, success: single })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(AnswerCarriesSecret, true),
    HttpApiEndpoint.get("get", "/webhooks/:webhook_id", { params, success: single })
      .annotate(RequiredScope, "webhooks:read")
      .annotate(AnswerCarriesSecret, true),
    HttpApiEndpoint.put("replace", "/webhooks/:webhook_id", { params, payload: WebhookWriteV2, success: single })
      .annotate(RequiredScope, "webhooks:write")
      .annotate(AnswerCarriesSecret, true),
    HttpApiEndpoint.delete("delete", "/webhooks/:webhook_id", {
      params,
      success: Schema.Struct({ success: Schema.Boolean })
    })
      .annotate(RequiredScope, "webhooks:write"),
    HttpApiEndpoint.get("example", "/webhook-examples/:topic", {
      params: { topic: Schema.String },
      success: Schema.Record(Schema.String, Schema.Unknown)
    })
      .annotate(RequiredScope, "webhooks:read")
  )
  .middleware(LegacyRequestFailures)
  .middleware(LegacyApiKeyAuth)
  .prefix("/api/v2")
  .annotate(OpenApi.Title, "v2 webhooks (deprecated)")
  .annotate(OpenApi.Exclude, true)
  .pipe(legacyGeneration)
{}
