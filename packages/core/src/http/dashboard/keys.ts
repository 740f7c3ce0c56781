import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { NotFound } from "../../domain/errors.js"
import { keyRowView } from "../../presenters/dashboard/keys.js"
import { Credentials } from "../../services/credentials/credentials.js"
import { ActionForm, CreateKeyForm, readSignedInForm } from "./forms.js"
import { htmlPage, pathId, seeOther } from "./respond.js"
import { noticeOf, openStore } from "./session.js"
import { keysView, revokeKeyView } from "./views/keys.js"

const NOTICES = { revoked: "The key was revoked. Requests made with it are refused from now on." } as const

/** GET /dashboard/stores/:store_id/keys: the Store's keys and the form for a new one. */
export const listKeys = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "keys")
    const keys = yield* (yield* Credentials).listForStore(store.id)
    return htmlPage(keysView(paths, viewer, context, keys.map(keyRowView), { notice: noticeOf(request, NOTICES) }))
  })

/** POST /dashboard/stores/:store_id/keys: creates a key and shows its secret, this once. */
export const createKey = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "keys")
    const form = yield* readSignedInForm(request, CreateKeyForm, viewer)
    const credentials = yield* Credentials
    const issued = yield* credentials.issue(store.id, form.mode, { _tag: "Scoped", scopes: [...new Set(form.scope)] })
    const keys = yield* credentials.listForStore(store.id)
    return htmlPage(keysView(paths, viewer, context, keys.map(keyRowView), { created: { key: issued.key, mode: issued.mode } }), 201)
  })

// A live key of the Store, or not found.
const keyOfStore = (storeId: number) =>
  Effect.gen(function*() {
    const keyId = yield* pathId("key_id", "API key")
    const key = (yield* (yield* Credentials).listForStore(storeId)).find((candidate) => candidate.id === keyId)
    return key === undefined ? yield* new NotFound({ resource: "API key" }) : key
  })

/** GET /dashboard/stores/:store_id/keys/:key_id/revoke: asks before revoking. */
export const confirmRevokeKey = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "keys")
    return htmlPage(revokeKeyView(paths, viewer, context, keyRowView(yield* keyOfStore(store.id))))
  })

/** POST /dashboard/stores/:store_id/keys/:key_id/revoke: revokes the key (once every process refuses it). */
export const revokeKey = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, paths } = yield* openStore(request, "keys")
    yield* readSignedInForm(request, ActionForm, viewer)
    yield* (yield* Credentials).revokeForStore(store.id, yield* pathId("key_id", "API key"))
    return seeOther(`${paths.section(store.id, "keys")}?done=revoked`)
  })
