import { Data, Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { NotFound } from "../../domain/errors.js"
import { Identity, type Store } from "../../services/credentials/identity.js"
import { OAuthSessions, type PersonSession } from "../../services/oauth/sessions.js"
import { Settings } from "../../services/settings.js"
import { cookiePolicy } from "../browser/cookies.js"
import type { StoreContext, Viewer } from "./layout.js"
import type { StoreSection } from "./paths.js"
import { currentPaths, pathId } from "./respond.js"

/** A page or form that needs a signed-in person was asked for without a live session. */
export class SignInRequired extends Data.TaggedError("SignInRequired")<Record<never, never>> {}

/** A signed-in person: their session, and the cookie value that names it. */
export interface SignedIn extends Viewer {
  readonly personId: number
  /** The session cookie's value, which sign-out ends. */
  readonly token: string
}

const signedInOf = (token: string, session: PersonSession): SignedIn => ({
  personId: session.personId,
  email: session.email,
  csrfToken: session.csrfToken,
  token
})

/** The person signed in on this browser (the consent screen's session is the same one), if any. */
export const currentViewer = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const policy = cookiePolicy((yield* Settings).baseUrl)
    const token = request.cookies[policy.session]
    if (token === undefined) return undefined
    const session = yield* (yield* OAuthSessions).find(token)
    return session === undefined ? undefined : signedInOf(token, session)
  })

/** The signed-in person, or {@link SignInRequired}. */
export const requireViewer = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(currentViewer(request), (viewer) => (viewer === undefined ? Effect.fail(new SignInRequired()) : Effect.succeed(viewer)))

/**
 * A Store of one of the person's companies. Any other Store, existing or not, is not found: a
 * person learns nothing of a Store outside their companies.
 */
export const storeOfViewer = (viewer: SignedIn, storeId: number) =>
  Effect.gen(function*(): Effect.fn.Return<Store, NotFound, OAuthSessions | Identity> {
    const stores = yield* (yield* OAuthSessions).storesOf(viewer.personId)
    if (!stores.some((store) => store.id === storeId)) return yield* new NotFound({ resource: "store" })
    return yield* (yield* Identity).findStore(storeId)
  })

/** The Store a page is about (path parameter `store_id`), for the signed-in person. */
export const openStore = (request: HttpServerRequest.HttpServerRequest, section: StoreSection) =>
  Effect.gen(function*() {
    const viewer = yield* requireViewer(request)
    const store = yield* storeOfViewer(viewer, yield* pathId("store_id", "store"))
    const context: StoreContext = { id: store.id, name: store.name, section }
    return { viewer, store, context, paths: yield* currentPaths }
  })

/** The notice a page shows after an action it was sent back from (`?done=…`), from a fixed list: never text from the URL. */
export const noticeOf = <K extends string>(request: HttpServerRequest.HttpServerRequest, notices: Readonly<Record<K, string>>): string | undefined => {
  const done = new URL(request.url, "http://dashboard.invalid").searchParams.get("done")
  return done !== null && Object.hasOwn(notices, done) ? notices[done as K] : undefined
}
