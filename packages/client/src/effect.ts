/**
 * @signcraft/client/effect: the typed Effect client (`HttpApiClient` over the API definition)
 * sending through a `SigncraftClient`, so it keeps the same retry and idempotency rules.
 */
import { SigncraftApi } from "@signcraft/core/api"
import { Effect, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { SigncraftClient, type SigncraftClientOptions } from "./client.js"

/** The typed Effect client of the whole API, as `HttpApiClient` derives it from `SigncraftApi`. */
export type SigncraftEffectClient = HttpApiClient.ForApi<typeof SigncraftApi>

/** The Effect client of the whole API: `client.v3Commerce.createOrder({ payload })`, … */
export const makeSigncraftEffectClient = (options: SigncraftClientOptions | SigncraftClient): Effect.Effect<SigncraftEffectClient> => {
  const client = options instanceof SigncraftClient ? options : new SigncraftClient(options)
  return HttpApiClient.make(SigncraftApi, { baseUrl: client.baseUrl }).pipe(
    Effect.provide(Layer.provide(FetchHttpClient.layer, Layer.succeed(FetchHttpClient.Fetch, client.fetch)))
  )
}
