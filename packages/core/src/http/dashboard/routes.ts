import { Context, Effect } from "effect"
import { HttpRouter, type HttpServerRequest, type HttpServerResponse } from "effect/http"
import type { Analytics } from "../../services/commerce/analytics.js"
import type { Credentials } from "../../services/credentials/credentials.js"
import type { Customisers } from "../../services/pricing/customisers.js"
import type { DeprecatedUsage } from "../../services/requests/deprecated-usage.js"
import type { Identity } from "../../services/credentials/identity.js"
import type { OAuthGrants } from "../../services/oauth/grants.js"
import type { OAuthSessions } from "../../services/oauth/sessions.js"
import type { RateLimiter } from "../../services/requests/rate-limiter.js"
import type { Settings } from "../../services/settings.js"
import type { WebhookDeliveries } from "../../services/webhooks/deliveries.js"
import type { WebhookHealth } from "../../services/webhooks/health.js"
import type { WebhookReplay } from "../../services/webhooks/replay.js"
import type { WebhookSubscriptions } from "../../services/webhooks/subscriptions.js"
import { admitClientIp } from "../browser/client-quota.js"
import type { RouteEntry } from "../route-table.js"
import { home, signIn, signOut } from "./account.js"
import { confirmRevokeAgent, listAgents, revokeAgent } from "./agents.js"
import { showAnalytics } from "./analytics.js"
import { script, stylesheet } from "./assets.js"
import { confirmRevokeKey, createKey, listKeys, revokeKey } from "./keys.js"
import { showMigration } from "./migration.js"
import { showPricing } from "./pricing.js"
import { DASHBOARD_PATH } from "./paths.js"
import { currentPaths, seeOther } from "./respond.js"
import { openStore, SignInRequired } from "./session.js"
import { enableWebhook, listWebhooks, recoverEvents, resendEvent, rotateSecret, sendTestEvent, showWebhook } from "./webhooks.js"

/** What the dashboard's handlers use; resolved once, when the routes are built. */
type DashboardServices =
  | Analytics
  | Credentials
  | Customisers
  | DeprecatedUsage
  | Identity
  | OAuthGrants
  | OAuthSessions
  | RateLimiter
  | Settings
  | WebhookDeliveries
  | WebhookHealth
  | WebhookReplay
  | WebhookSubscriptions

type PageHandler = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, DashboardServices | HttpRouter.RouteContext>

/** GET /dashboard/stores/:store_id: the Store's first section. */
const storeHome: PageHandler = (request) =>
  Effect.map(openStore(request, "keys"), ({ store, paths }) => seeOther(paths.section(store.id, "keys")))

const STORE = `${DASHBOARD_PATH}/stores/:store_id`

const routes: ReadonlyArray<RouteEntry & { readonly method: "GET" | "POST"; readonly handler: PageHandler }> = [
  { method: "GET", path: DASHBOARD_PATH, handler: home },
  { method: "POST", path: `${DASHBOARD_PATH}/sign-in`, handler: signIn },
  { method: "POST", path: `${DASHBOARD_PATH}/sign-out`, handler: signOut },
  { method: "GET", path: `${DASHBOARD_PATH}/assets/dashboard.css`, handler: () => Effect.succeed(stylesheet) },
  { method: "GET", path: `${DASHBOARD_PATH}/assets/dashboard.js`, handler: () => Effect.succeed(script) },
  { method: "GET", path: STORE, handler: storeHome },
  { method: "GET", path: `${STORE}/keys`, handler: listKeys },
  { method: "POST", path: `${STORE}/keys`, handler: createKey },
  { method: "GET", path: `${STORE}/keys/:key_id/revoke`, handler: confirmRevokeKey },
  { method: "POST", path: `${STORE}/keys/:key_id/revoke`, handler: revokeKey },
  { method: "GET", path: `${STORE}/webhooks`, handler: listWebhooks },
  { method: "GET", path: `${STORE}/webhooks/:webhook_id`, handler: showWebhook },
  { method: "POST", path: `${STORE}/webhooks/:webhook_id/rotate-secret`, handler: rotateSecret },
  { method: "POST", path: `${STORE}/webhooks/:webhook_id/enable`, handler: enableWebhook },
  { method: "POST", path: `${STORE}/webhooks/:webhook_id/events/:event_id/resend`, handler: resendEvent },
  { method: "POST", path: `${STORE}/webhooks/:webhook_id/recover`, handler: recoverEvents },
  { method: "POST", path: `${STORE}/webhooks/:webhook_id/test`, handler: sendTestEvent },
  { method: "GET", path: `${STORE}/agents`, handler: listAgents },
  { method: "GET", path: `${STORE}/agents/:grant_id/revoke`, handler: confirmRevokeAgent },
  { method: "POST", path: `${STORE}/agents/:grant_id/revoke`, handler: revokeAgent },
  { method: "GET", path: `${STORE}/analytics`, handler: showAnalytics },
  { method: "GET", path: `${STORE}/migration`, handler: showMigration },
  { method: "GET", path: `${STORE}/pricing`, handler: showPricing }
]

/** The dashboard's routes (method and path), for 405 answers. */
export const dashboardRouteTable: ReadonlyArray<RouteEntry> = routes.map(({ method, path }) => ({ method, path }))

// Every page shares the per-IP backstop; a page that needs a person sends the signed-out browser
// to the sign-in form. Failures go on to the router middleware, which renders them as pages.
const guarded = (handler: PageHandler): PageHandler => (request) =>
  Effect.andThen(admitClientIp, handler(request)).pipe(
    Effect.catchIf(
      (failure): failure is SignInRequired => failure instanceof SignInRequired,
      () => Effect.map(currentPaths, (paths) => seeOther(paths.root))
    )
  )

/**
 * The merchant dashboard's routes on the base URL. The handlers get their services from the app
 * being built, as the authorization server's do.
 */
export const layerDashboardRoutes = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<DashboardServices>()
    for (const route of routes) {
      yield* router.add(route.method, route.path, (request) =>
        guarded(route.handler)(request).pipe(
          Effect.updateContext((routed: Context.Context<HttpRouter.RouteContext>) => Context.merge(routed, context))
        ))
    }
  })
)
