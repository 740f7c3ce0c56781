import { Context, Effect, Layer } from "effect"
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns"
import type { LookupFunction } from "node:net"
import { allowsLoopback, checkDeliveryUrl, type DeliveryUrlFault, FORBIDDEN_HOST, hostOf, isForbiddenAddress } from "../../domain/outbound/delivery-url.js"
import { Settings } from "../settings.js"

/**
 * A `lookup` for `http.request` that refuses to connect to a forbidden address (loopback allowed
 * when `allowLoopback`): the check at connect time, after any re-pointing of the name.
 */
export const guardedLookupFor = (allowLoopback: boolean): LookupFunction => (hostname, options, callback) => {
  const all: LookupAllOptions = { ...(options as LookupOptions), all: true }
  dnsLookup(hostname, all, (error, addresses: Array<LookupAddress>) => {
    if (error !== null) return callback(error, "", 0)
    const refused = addresses.find((a) => isForbiddenAddress(a.address, allowLoopback))
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

/**
 * The delivery URL rule of the deployment (docs/security.md, outbound requests), applied when a subscription
 * or integration is written and again before every attempt. Names are resolved in every
 * environment: every address must be public unicast (or loopback outside production). OutboundHttp
 * connects through {@link guardedLookupFor}, so a name cannot be re-pointed at an internal address
 * between the check and the connection. Outside production a name that does not resolve yet is
 * accepted: the connect-time check still judges whatever it resolves to then.
 */
export class DeliveryUrlGuard extends Context.Service<DeliveryUrlGuard, {
  readonly check: (raw: string) => Effect.Effect<URL, DeliveryUrlFault>
}>()("signcraft/DeliveryUrlGuard") {
  static readonly layer = Layer.effect(
    DeliveryUrlGuard,
    Effect.gen(function*() {
      const settings = yield* Settings
      const production = settings.environment === "production"
      const loopback = allowsLoopback(settings.environment)
      return DeliveryUrlGuard.of({
        check: Effect.fn("DeliveryUrlGuard.check")(function*(raw) {
            const judged = checkDeliveryUrl(raw, settings.environment)
            if (!judged.ok) return yield* Effect.fail(judged.fault)
            const resolved = yield* resolveAll(hostOf(judged.url)).pipe(Effect.result)
            if (resolved._tag === "Failure") {
              if (!production) return judged.url
              return yield* Effect.fail<DeliveryUrlFault>({ code: "invalid_url", detail: "The host name does not resolve." })
            }
            if (resolved.success.length === 0 || resolved.success.some((a) => isForbiddenAddress(a.address, loopback))) {
              return yield* Effect.fail(FORBIDDEN_HOST)
            }
            return judged.url
          })
      })
    })
  )
}
