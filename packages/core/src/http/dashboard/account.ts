import { Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { MalformedRequest } from "../../domain/errors.js"
import { DEVICE_COOKIE_DAYS, OAuthSessions, SESSION_TTL_HOURS } from "../../services/oauth/sessions.js"
import { Settings } from "../../services/settings.js"
import { cookiePolicy, withCookie, withoutCookie } from "../browser/cookies.js"
import { CSRF_COOKIE_SECONDS, newCsrfToken, sameSecret } from "../browser/csrf.js"
import { type RefusalWording, signInRefusal } from "../browser/sign-in-refusal.js"
import { CurrentRequest } from "../request-info.js"
import { ActionForm, readForm, readSignedInForm, SignInForm } from "./forms.js"
import { currentPaths, htmlPage, seeOther } from "./respond.js"
import { currentViewer, requireViewer } from "./session.js"
import { signInView, storesView } from "./views/sign-in.js"

// The sign-in form, with a fresh anti-forgery token in its cookie and its field.
const showSignIn = (refusal?: RefusalWording) =>
  Effect.gen(function*() {
    const policy = cookiePolicy((yield* Settings).baseUrl)
    const csrfToken = newCsrfToken()
    const page = htmlPage(signInView(yield* currentPaths, csrfToken, refusal?.message), refusal?.status ?? 200).pipe(
      withCookie(policy, policy.csrf, csrfToken, CSRF_COOKIE_SECONDS)
    )
    return refusal?.retryAfter === undefined ? page : HttpServerResponse.setHeader(page, "retry-after", String(refusal.retryAfter))
  })

/** GET /dashboard: the Stores of the signed-in person, or the sign-in form. */
export const home = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const viewer = yield* currentViewer(request)
    if (viewer === undefined) return yield* showSignIn()
    const stores = yield* (yield* OAuthSessions).storesOf(viewer.personId)
    return htmlPage(storesView(yield* currentPaths, viewer, stores))
  })

/** POST /dashboard/sign-in: the consent screen's sign-in, with its throttles, opening the same session. */
export const signIn = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const policy = cookiePolicy((yield* Settings).baseUrl)
    const form = yield* readForm(request, SignInForm)
    const expected = request.cookies[policy.csrf]
    if (expected === undefined || !sameSecret(form.csrf_token, expected)) {
      return yield* new MalformedRequest({ detail: "The sign-in form is stale. Go back, reload the page and sign in again." })
    }
    const outcome = yield* (yield* OAuthSessions)
      .signIn(form.email, form.password, (yield* CurrentRequest).clientIp, request.cookies[policy.device])
      .pipe(Effect.result)
    if (outcome._tag === "Failure") return yield* showSignIn(signInRefusal(outcome.failure))
    return seeOther((yield* currentPaths).root).pipe(
      withCookie(policy, policy.session, outcome.success.token, SESSION_TTL_HOURS * 3600),
      withCookie(policy, policy.device, outcome.success.device, DEVICE_COOKIE_DAYS * 86_400),
      withoutCookie(policy, policy.csrf)
    )
  })

/** POST /dashboard/sign-out: ends the session (here and on the consent screen) and drops its cookie. */
export const signOut = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const viewer = yield* requireViewer(request)
    yield* readSignedInForm(request, ActionForm, viewer)
    yield* (yield* OAuthSessions).end(viewer.token)
    const policy = cookiePolicy((yield* Settings).baseUrl)
    return seeOther((yield* currentPaths).root).pipe(withoutCookie(policy, policy.session))
  })
