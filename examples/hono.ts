// signcraft inside a Hono app on Node: `npx tsx examples/hono.ts`
import { serve } from "@hono/node-server"
import { signcraftHono } from "@signcraft/adapters"
import { defaultSettings, layerDatabase, makeWebHandler } from "@signcraft/core"
import { Redacted } from "effect"
import { Hono } from "hono"

const port = Number(process.env.PORT ?? 3000)
const signcraft = makeWebHandler(
  {
    settings: defaultSettings({
      baseUrl: `http://localhost:${port}`, // public links; signcraft is mounted at the root
      operatorToken: process.env.OPERATOR_TOKEN === undefined ? undefined : Redacted.make(process.env.OPERATOR_TOKEN)
    })
  },
  layerDatabase({ _tag: "Embedded", location: { dataDir: ".data/example-hono" } })
)

const app = new Hono()
app.get("/", (c) => c.text("The host's own route. signcraft answers /healthz, /docs, /api/v3/… and /operator/v1/…"))
app.all("/*", signcraftHono(signcraft.handler))

const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port }, () =>
  console.log(`Hono + signcraft on http://localhost:${port}/healthz`))
process.once("SIGINT", () => server.close(() => void signcraft.dispose()))
