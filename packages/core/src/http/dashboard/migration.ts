import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readableDay } from "../../presenters/dashboard/dates.js"
import { keyMigrationViews } from "../../presenters/dashboard/migration.js"
import { Credentials } from "../../services/credentials/credentials.js"
import { DeprecatedUsage } from "../../services/requests/deprecated-usage.js"
import { SUNSET_HTTP_DATE } from "../deprecation.js"
import { htmlPage } from "./respond.js"
import { openStore } from "./session.js"
import { migrationView } from "./views/migration.js"

/** GET /dashboard/stores/:store_id/migration: the deprecated operations each key still calls, and the Sunset. */
export const showMigration = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const { viewer, store, context, paths } = yield* openStore(request, "migration")
    const usage = yield* (yield* DeprecatedUsage).forStore(store.id)
    const keys = yield* (yield* Credentials).listForStore(store.id)
    // The date every previous-generation answer announces in its Sunset header.
    return htmlPage(migrationView(paths, viewer, context, keyMigrationViews(usage, keys), readableDay(new Date(SUNSET_HTTP_DATE))))
  })
