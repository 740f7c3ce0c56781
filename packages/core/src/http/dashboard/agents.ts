import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { NotFound } from "../../domain/errors.js"
import { agentRowView } from "../../presenters/dashboard/agents.js"
import { OAuthGrants } from "../../services/oauth/grants.js"
import { ActionForm, readSignedInForm } from "./forms.js"
import { htmlPage, pathId, seeOther } from "./respond.js"
import { noticeOf, openStore } from "./session.js"
import { agentsView, revokeAgentView } from "./views/agents.js"

const NOTICES = { revoked: "The agent's access was revoked. Its tokens no longer work." } as const

/** GET /dashboard/stores/:store_id/agents: the Store's live connector grants. */
export const listAgents = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "agents")
    const connections = yield* (yield* OAuthGrants).listConnections(store.id)
    return htmlPage(agentsView(paths, viewer, context, connections.map(agentRowView), noticeOf(request, NOTICES)))
  })

// A live connection of the Store, or not found: another Store's grant is never reached from here.
const connectionOfStore = (storeId: number) =>
  Effect.gen(function*() {
    const grantId = yield* pathId("grant_id", "connection")
    const connection = (yield* (yield* OAuthGrants).listConnections(storeId)).find((candidate) => candidate.id === grantId)
    return connection === undefined ? yield* new NotFound({ resource: "connection" }) : connection
  })

/** GET /dashboard/stores/:store_id/agents/:grant_id/revoke: asks before revoking. */
export const confirmRevokeAgent = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "agents")
    return htmlPage(revokeAgentView(paths, viewer, context, agentRowView(yield* connectionOfStore(store.id))))
  })

/** POST /dashboard/stores/:store_id/agents/:grant_id/revoke: revokes the connection, its tokens and codes. */
export const revokeAgent = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, paths } = yield* openStore(request, "agents")
    yield* readSignedInForm(request, ActionForm, viewer)
    const connection = yield* connectionOfStore(store.id)
    yield* (yield* OAuthGrants).revokeConnection(connection.id)
    return seeOther(`${paths.section(store.id, "agents")}?done=revoked`)
  })
