// signcraft in a Next.js App Router app: this file is app/[...signcraft]/route.ts.
import { toNextRouteHandlers } from "@signcraft/adapters"
import { defaultSettings, layerDatabase, makeWebHandler } from "@signcraft/core"
import { Redacted } from "effect"

// PGlite and the PostgreSQL driver need Node, and every request is dynamic.
export const runtime = "nodejs"
export const dynamic = "force-dynamic"

// One handler per process: dev-mode reloads re-evaluate this module, and two embedded
// databases must never open the same directory.
const shared = globalThis as { signcraft?: ReturnType<typeof makeWebHandler> }
shared.signcraft ??= makeWebHandler(
  {
    settings: defaultSettings({
      baseUrl: process.env.BASE_URL ?? "http://localhost:3000", // public links; the route sits at the root
      operatorToken: process.env.OPERATOR_TOKEN === undefined ? undefined : Redacted.make(process.env.OPERATOR_TOKEN)
    })
  },
  layerDatabase({ _tag: "Embedded", location: { dataDir: ".data/example-next" } })
)

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = toNextRouteHandlers(shared.signcraft.handler)
