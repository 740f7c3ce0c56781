import { Effect, Result } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  type AuthorizationRequest,
  type AuthorizationVerdict,
  checkAuthorizationRequest,
  issParameter,
  mayRedirectError,
  redirectWith
} from "../../domain/oauth/authorization-request.js"
import { ClientDocumentRefused, OAuthError } from "../../domain/oauth/errors.js"
import { basePathOf } from "../../domain/deployment/base-path.js"
import { agentLocation, authorizationServerMetadata } from "../../domain/oauth/metadata.js"
import { isScope } from "../../domain/credentials/scopes.js"
import { type OAuthClient, OAuthClients } from "../../services/oauth/clients.js"
import { OAuthGrants } from "../../services/oauth/grants.js"
import { DEVICE_COOKIE_DAYS, OAuthSessions, type PersonSession, SESSION_TTL_HOURS } from "../../services/oauth/sessions.js"
import type { RateLimiter } from "../../services/requests/rate-limiter.js"
import { Settings } from "../../services/settings.js"
import { CurrentRequest } from "../request-info.js"
import { admitClientIp } from "../browser/client-quota.js"
import { cookiePolicy, withCookie } from "../browser/cookies.js"
import { CSRF_COOKIE_SECONDS, newCsrfToken, sameSecret } from "../browser/csrf.js"
import { readFormBody, UNSTORABLE_DETAIL } from "../browser/form-body.js"
import { withPageHeaders } from "../browser/page-headers.js"
import { signInRefusal } from "../browser/sign-in-refusal.js"
import { type ClientDisplay, clientDocumentRefusedPage, consentPage, refusalPage, signInPage } from "./pages.js"
import { oauthErrorResponse, oauthJson, publicJson } from "./respond.js"
import { oauthErrorBody } from "../protocol-errors.js"
import type { RouteEntry } from "../route-table.js"
import { findUnacceptableValue, findUnstorableParam } from "../../domain/input/json-input.js"

const AUTHORIZE_PATH = "/oauth/authorize"

// Where the sign-in and consent forms post and lead back to: the base path and the endpoint.
const authorizePathOf = (baseUrl: string): string => `${basePathOf(baseUrl)}${AUTHORIZE_PATH}`

const queryOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const at = request.url.indexOf("?")
  return at === -1 ? "" : request.url.slice(at + 1)
}

/** The per-IP backstop, answered as RFC 6749 asks. */
const perIpBackstop = admitClientIp.pipe(
  Effect.mapError((limited) =>
    new OAuthError({
      error: "rate_limited",
      description: `Too many requests; retry after ${limited.retryAfter} seconds.`,
      retryAfter: limited.retryAfter
    })
  )
)

// A form post: the body as URL parameters, or an RFC 6749 refusal.
const readForm = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(readFormBody(request), Result.match({
    onSuccess: (params) => Effect.succeed(params),
    onFailure: (description) => Effect.fail(new OAuthError({ error: "invalid_request", description }))
  }))

// RFC 6749 §3.1/§3.2: request parameters must not be repeated.
const one = (params: URLSearchParams, name: string) =>
  Effect.gen(function*() {
    const values = params.getAll(name)
    if (values.length > 1) {
      return yield* new OAuthError({ error: "invalid_request", description: `${name} must be sent once.` })
    }
    const [value] = values
    return value === "" ? undefined : value
  })

const requireParam = (params: URLSearchParams, name: string) =>
  Effect.flatMap(one(params, name), (value) =>
    value === undefined
      ? Effect.fail(new OAuthError({ error: "invalid_request", description: `${name} is required.` }))
      : Effect.succeed(value))

// Public clients identify themselves with client_id alone; a secret or Basic credentials
// mean a confidential client, which this server does not have.
const publicClient = (request: HttpServerRequest.HttpServerRequest, params: URLSearchParams) =>
  Effect.gen(function*() {
    const invalidClient = (description: string) => new OAuthError({ error: "invalid_client", description })
    if (params.has("client_secret") || /^basic\s/i.test(request.headers.authorization ?? "")) {
      return yield* invalidClient("Clients are public: authenticate with client_id alone, without a secret.")
    }
    const clientId = yield* one(params, "client_id")
    if (clientId === undefined) return yield* invalidClient("client_id is required.")
    const client = yield* (yield* OAuthClients).find(clientId)
    if (client === undefined) return yield* invalidClient("Unknown client.")
    return client
  })

// OAuth refusals become RFC 6749 JSON, and an unusable client metadata document a page for the
// person (the client's redirect URI is not known to be its own); anything else (an unreadable
// body) goes on to the router middleware, which answers it like every other request failure.
const answer = <E extends { readonly _tag: string }, R>(effect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  effect.pipe(
    Effect.catchIf(
      (failure): failure is Extract<E, OAuthError> => failure instanceof OAuthError,
      (failure) => Effect.succeed(oauthErrorResponse(failure))
    ),
    Effect.catchIf(
      (failure): failure is Extract<Exclude<E, Extract<E, OAuthError>>, ClientDocumentRefused> => failure instanceof ClientDocumentRefused,
      (failure) =>
        Effect.succeed(htmlPage(clientDocumentRefusedPage("invalid_client", failure.description)).pipe(HttpServerResponse.setStatus(400)))
    )
  )

/** POST /oauth/register: RFC 7591 dynamic registration of public clients. */
const register = (request: HttpServerRequest.HttpServerRequest) =>
  answer(Effect.gen(function*() {
    yield* perIpBackstop
    const info = yield* CurrentRequest
    const text = yield* request.text
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = undefined
    }
    const fault = findUnacceptableValue(body)
    if (fault !== undefined) {
      return yield* new OAuthError({ error: "invalid_client_metadata", description: `${fault.pointer}: ${fault.detail}` })
    }
    // The quota counts this attempt before anything about it is checked.
    const client = yield* (yield* OAuthClients).register(body, info.clientIp)
    return oauthJson({
      client_id: client.clientId,
      client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
      ...(client.clientName === null ? {} : { client_name: client.clientName }),
      redirect_uris: client.redirectUris,
      grant_types: client.grantTypes,
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(client.scope === null ? {} : { scope: client.scope.join(" ") })
    }, 201)
  }))

/** POST /oauth/token: code exchange and refresh. */
const token = (request: HttpServerRequest.HttpServerRequest) =>
  answer(Effect.gen(function*() {
    yield* perIpBackstop
    const params = yield* readForm(request)
    const client = yield* publicClient(request, params)
    const grants = yield* OAuthGrants
    const grantType = yield* requireParam(params, "grant_type")
    const resources = params.getAll("resource")
    if (grantType === "authorization_code") {
      const response = yield* grants.exchangeCode({
        clientId: client.clientId,
        code: yield* requireParam(params, "code"),
        codeVerifier: yield* one(params, "code_verifier"),
        redirectUri: yield* one(params, "redirect_uri"),
        resources
      })
      return oauthJson(response)
    }
    if (grantType === "refresh_token") {
      const response = yield* grants.refresh({
        clientId: client.clientId,
        refreshToken: yield* requireParam(params, "refresh_token"),
        scope: yield* one(params, "scope"),
        resources
      })
      return oauthJson(response)
    }
    return yield* new OAuthError({
      error: "unsupported_grant_type",
      description: "Only authorization_code and refresh_token are supported."
    })
  }))

/** POST /oauth/revoke: RFC 7009, by client_id alone. */
const revoke = (request: HttpServerRequest.HttpServerRequest) =>
  answer(Effect.gen(function*() {
    yield* perIpBackstop
    const params = yield* readForm(request)
    const client = yield* publicClient(request, params)
    const presented = yield* requireParam(params, "token")
    yield* (yield* OAuthGrants).revokeToken(client.clientId, presented)
    return oauthJson({})
  }))

const displayOf = (client: OAuthClient, redirectUri: string): ClientDisplay => ({
  name: client.clientName ?? client.clientId,
  verified: client.verified,
  redirectHost: new URL(redirectUri).host,
  documentHost: client.metadataDocument ? new URL(client.clientId).host : undefined
})

// Checks an authorization request (from the query, or re-posted by a form).
const checkRequest = (query: string) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const params = new URLSearchParams(query)
    const unstorable = findUnstorableParam(params)
    if (unstorable !== undefined) {
      const verdict: AuthorizationVerdict = {
        _tag: "Direct",
        error: "invalid_request",
        description: `${unstorable} ${UNSTORABLE_DETAIL}`
      }
      return { verdict, client: undefined }
    }
    const ids = params.getAll("client_id")
    const info = yield* CurrentRequest
    const client = ids.length === 1 && ids[0] !== undefined && ids[0] !== ""
      ? yield* (yield* OAuthClients).resolve(ids[0], info.clientIp)
      : undefined
    const verdict = checkAuthorizationRequest(params, client, agentLocation(settings.baseUrl, settings.mcpUrl).resource)
    return { verdict, client }
  })

// Refusals that must not go to an unverified redirect URI are shown here instead.
const directRefusal = (verdict: Extract<AuthorizationVerdict, { _tag: "Direct" }>) =>
  oauthJson(oauthErrorBody(verdict.error, verdict.description), 400)

const redirectTo = (location: string) =>
  HttpServerResponse.redirect(location, { status: 303, headers: { "cache-control": "no-store" } })

/** Sends the authorization response (a code or an error) to the client's redirect URI, with `iss` when the deployment sends it. */
const answerAt = (redirectUri: string, params: Readonly<Record<string, string | undefined>>) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    return redirectTo(redirectWith(redirectUri, { ...params, ...issParameter(settings.baseUrl, settings.oauthIssParameter) }))
  })

const refusalRedirect = (verdict: Extract<AuthorizationVerdict, { _tag: "Redirect" }>) =>
  answerAt(verdict.redirectUri, {
    error: verdict.error,
    error_description: verdict.description,
    state: verdict.state
  })

// An error found before consent goes back to the client only if someone vouches for it.
const refusal = (
  verdict: Extract<AuthorizationVerdict, { _tag: "Redirect" }>,
  client: OAuthClient | undefined,
  request: HttpServerRequest.HttpServerRequest
) =>
  Effect.gen(function*() {
    if (client === undefined) return directRefusal({ _tag: "Direct", error: verdict.error, description: verdict.description })
    const session = yield* currentSession(request)
    const approved = session !== undefined && (yield* (yield* OAuthSessions).hasApproved(session.personId, client.clientId))
    if (mayRedirectError(client, approved)) return yield* refusalRedirect(verdict)
    const display = displayOf(client, verdict.redirectUri)
    return htmlPage(refusalPage(display, verdict.error, verdict.description)).pipe(HttpServerResponse.setStatus(400))
  })

// The consent pages style themselves inline and load nothing.
const htmlPage = (html: string) =>
  HttpServerResponse.html(html).pipe(withPageHeaders("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"))

const currentSession = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const policy = cookiePolicy((yield* Settings).baseUrl)
    const value = request.cookies[policy.session]
    return value === undefined ? undefined : yield* (yield* OAuthSessions).find(value)
  })

const showSignIn = (client: ClientDisplay, query: string, error?: string, refused?: { readonly status: number; readonly retryAfter?: number }) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* Settings
    const policy = cookiePolicy(baseUrl)
    const csrfToken = newCsrfToken()
    const state = { csrfToken, authorizationRequest: query, formAction: authorizePathOf(baseUrl) }
    const page = htmlPage(signInPage(client, state, error)).pipe(
      withCookie(policy, policy.csrf, csrfToken, CSRF_COOKIE_SECONDS)
    )
    if (refused === undefined) return page
    const withStatus = HttpServerResponse.setStatus(page, refused.status)
    return refused.retryAfter === undefined
      ? withStatus
      : HttpServerResponse.setHeader(withStatus, "retry-after", String(refused.retryAfter))
  })

const showConsent = (client: ClientDisplay, request: AuthorizationRequest, session: PersonSession, query: string) =>
  Effect.gen(function*() {
    const stores = yield* (yield* OAuthSessions).storesOf(session.personId)
    const granted = yield* (yield* OAuthGrants).storeGrantsOf(request.clientId, session.personId)
    const state = { csrfToken: session.csrfToken, authorizationRequest: query, formAction: authorizePathOf((yield* Settings).baseUrl) }
    return htmlPage(consentPage(client, session.email, stores, request.scopes, state, granted))
  })

/** GET /oauth/authorize: checks the request, then shows sign-in or consent. */
const authorizeGet = (request: HttpServerRequest.HttpServerRequest) =>
  answer(Effect.gen(function*() {
    yield* perIpBackstop
    const query = queryOf(request)
    const { verdict, client } = yield* checkRequest(query)
    if (verdict._tag === "Direct") return directRefusal(verdict)
    if (verdict._tag === "Redirect") return yield* refusal(verdict, client, request)
    if (client === undefined) return yield* Effect.die(new Error("a valid request names a known client"))
    const display = displayOf(client, verdict.request.redirectUri)
    const session = yield* currentSession(request)
    return session === undefined
      ? yield* showSignIn(display, query)
      : yield* showConsent(display, verdict.request, session, query)
  }))

const forgedForm = oauthJson(
  oauthErrorBody("invalid_request", "The form's anti-forgery token is missing or stale; start the authorization again."),
  400
)

/** POST /oauth/authorize: the sign-in and consent forms. */
const authorizePost = (request: HttpServerRequest.HttpServerRequest) =>
  answer(Effect.gen(function*() {
    yield* perIpBackstop
    const settings = yield* Settings
    const policy = cookiePolicy(settings.baseUrl)
    const form = yield* readForm(request)
    const query = form.get("authorization_request") ?? ""
    const { verdict, client } = yield* checkRequest(query)
    if (verdict._tag === "Direct") return directRefusal(verdict)
    if (verdict._tag === "Redirect") return yield* refusal(verdict, client, request)
    if (client === undefined) return yield* Effect.die(new Error("a valid request names a known client"))
    const display = displayOf(client, verdict.request.redirectUri)
    const presentedCsrf = form.get("csrf_token") ?? ""
    const action = form.get("action")

    if (action === "sign_in") {
      const expected = request.cookies[policy.csrf]
      if (expected === undefined || !sameSecret(presentedCsrf, expected)) return forgedForm
      const info = yield* CurrentRequest
      const outcome = yield* (yield* OAuthSessions)
        .signIn(form.get("email") ?? "", form.get("password") ?? "", info.clientIp, request.cookies[policy.device])
        .pipe(Effect.result)
      if (outcome._tag === "Failure") {
        const refused = signInRefusal(outcome.failure)
        return yield* showSignIn(
          display,
          query,
          refused.message,
          refused.status === undefined ? undefined : { status: refused.status, ...(refused.retryAfter === undefined ? {} : { retryAfter: refused.retryAfter }) }
        )
      }
      return redirectTo(`${authorizePathOf(settings.baseUrl)}?${query}`).pipe(
        withCookie(policy, policy.session, outcome.success.token, SESSION_TTL_HOURS * 3600),
        withCookie(policy, policy.device, outcome.success.device, DEVICE_COOKIE_DAYS * 86_400)
      )
    }

    if (action !== "consent") return forgedForm
    const session = yield* currentSession(request)
    if (session === undefined) return yield* showSignIn(display, query, "Your session has ended; sign in again.")
    if (!sameSecret(presentedCsrf, session.csrfToken)) return forgedForm
    const refuse = (description: string) =>
      answerAt(verdict.request.redirectUri, {
        error: "access_denied",
        error_description: description,
        state: verdict.request.state
      })
    if (form.get("decision") !== "approve") return yield* refuse("The person denied the request.")
    const stores = yield* (yield* OAuthSessions).storesOf(session.personId)
    const store = stores.find((candidate) => String(candidate.id) === form.get("store_id"))
    if (store === undefined) return yield* refuse("No Store of the person was chosen.")
    const approved = verdict.request.scopes.filter((scope) => form.getAll("scope").some((s) => isScope(s) && s === scope))
    if (approved.length === 0) return yield* refuse("No permission was approved.")
    const code = yield* (yield* OAuthGrants).approve(verdict.request, session.personId, store.id, approved)
    return yield* answerAt(verdict.request.redirectUri, { code, state: verdict.request.state })
  }))

/** RFC 8414 metadata, at the bare well-known path of the base URL. */
const authorizationServerDocument = Effect.gen(function*() {
  const settings = yield* Settings
  return publicJson(authorizationServerMetadata(settings.baseUrl, { issParameter: settings.oauthIssParameter }))
})

/** What the authorization server's handlers use; resolved once, when the routes are built. */
type RouteServices = OAuthClients | OAuthGrants | OAuthSessions | RateLimiter | Settings

type RouteHandler = (
  request: HttpServerRequest.HttpServerRequest
) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, RouteServices>

const routes: ReadonlyArray<RouteEntry & { readonly method: "GET" | "POST"; readonly handler: RouteHandler }> = [
  { method: "GET", path: "/.well-known/oauth-authorization-server", handler: () => authorizationServerDocument },
  { method: "POST", path: "/oauth/register", handler: register },
  { method: "GET", path: AUTHORIZE_PATH, handler: authorizeGet },
  { method: "POST", path: AUTHORIZE_PATH, handler: authorizePost },
  { method: "POST", path: "/oauth/token", handler: token },
  { method: "POST", path: "/oauth/revoke", handler: revoke }
]

/** The authorization server's routes (method and path), for 405 answers. */
export const oauthRouteTable: ReadonlyArray<RouteEntry> = routes.map(({ method, path }) => ({ method, path }))

/**
 * The authorization server's routes on the base URL. The handlers get their services
 * from the app being built, not from the serving context, so the same layer works in
 * `toWebHandler` and behind `HttpRouter.serve`.
 */
export const layerOAuthRoutes = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<RouteServices>()
    for (const route of routes) {
      yield* router.add(route.method, route.path, (request) => Effect.provideContext(route.handler(request), context))
    }
  })
)
