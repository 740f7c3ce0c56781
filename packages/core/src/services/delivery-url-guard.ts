import { Context, Effect, Layer } from "effect"
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns"
import type { LookupFunction } from "node:net"
import { checkDeliveryUrl, type DeliveryUrlFault, hostOf, isForbiddenAddress } from "../domain/delivery-url.js"
import { Settings } from "./settings.js"

/** A `lookup` for `http.request` that refuses to connect to a forbidden address. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  const all: LookupAllOptions = { ...(options as LookupOptions), all: true }
  dnsLookup(hostname, all, (error, addresses: Array<LookupAddress>) => {
    if (error !== null) return callback(error, "", 0)
    const refused = addresses.find((a) => isForbiddenAddress(a.address))
    const first = addresses[0]
    if (refused !== undefined || first === undefined) {
      const denied = Object.assign(new Error(`refused to connect to ${hostname}: forbidden address`), { code: "EFORBIDDEN" })
      return callback(denied, "", 0)
    }
    if ((options as LookupOptions).all === true) return (callback as unknown as (e: null, a: Array<LookupAddress>) => void)(null, addresses)
    return callback(null, first.address, first.family)
  })
}

const resolveAll = (host: string) =>
  Effect.callback<ReadonlyArray<LookupAddress>, NodeJS.ErrnoException>((resume) => {
    dnsLookup(host, { all: true }, (error, addresses) => {
      resume(error === null ? Effect.succeed(addresses) : Effect.fail(error))
    })
  })

const forbidden: DeliveryUrlFault = {
  code: "forbidden_host",
  detail: "Must not point at a loopback, private, link-local or metadata address."
}

/**
 * The delivery URL rule of the deployment (operating contract §1), applied when a subscription is
 * written and again by the worker before every attempt. In production names are resolved: every
 * address must be public, and OutboundHttp connects through {@link guardedLookup} so a name cannot
 * be re-pointed at an internal address between the check and the connection.
 */
export class DeliveryUrlGuard extends Context.Service<DeliveryUrlGuard, {
  readonly check: (raw: string) => Effect.Effect<URL, DeliveryUrlFault>
}>()("signcraft/DeliveryUrlGuard") {
  static readonly layer = Layer.effect(
    DeliveryUrlGuard,
    Effect.gen(function*() {
      const settings = yield* Settings
      const production = settings.environment === "production"
      return DeliveryUrlGuard.of({
        check: (raw) =>
          Effect.gen(function*() {
            const judged = checkDeliveryUrl(raw, settings.environment)
            if (!judged.ok) return yield* Effect.fail(judged.fault)
            if (!production) return judged.url
            const addresses = yield* resolveAll(hostOf(judged.url)).pipe(
              Effect.mapError((): DeliveryUrlFault => ({ code: "invalid_url", detail: "The host name does not resolve." }))
            )
            if (addresses.length === 0 || addresses.some((a) => isForbiddenAddress(a.address))) {
              return yield* Effect.fail(forbidden)
            }
            return judged.url
          })
      })
    })
  )
}
