// signcraft inside a Fastify app: `npx tsx examples/fastify.ts`
import { signcraftFastify } from "@signcraft/adapters"
import { defaultSettings, layerDatabase, makeWebHandler } from "@signcraft/core"
import { Redacted } from "effect"
import Fastify from "fastify"

const port = Number(process.env.PORT ?? 3000)
const signcraft = makeWebHandler(
  {
    settings: defaultSettings({
      baseUrl: `http://localhost:${port}`, // public links; signcraft is mounted at the root
      operatorToken: process.env.OPERATOR_TOKEN === undefined ? undefined : Redacted.make(process.env.OPERATOR_TOKEN)
    })
  },
  layerDatabase({ _tag: "Embedded", location: { dataDir: ".data/example-fastify" } })
)

const app = Fastify()
app.get("/", async () => "The host's own route. signcraft answers /healthz, /docs, /api/v3/… and /operator/v1/…")
// Registered without a prefix; body parsing is off inside the plugin only.
await app.register(signcraftFastify(signcraft.handler))
app.addHook("onClose", () => signcraft.dispose())

await app.listen({ host: "127.0.0.1", port })
console.log(`Fastify + signcraft on http://localhost:${port}/healthz`)
process.once("SIGINT", () => void app.close())
