// signcraft inside an Express app: `npx tsx examples/express.ts`
import { toNodeListener } from "@signcraft/adapters"
import { defaultSettings, layerDatabase, makeWebHandler } from "@signcraft/core"
import { Redacted } from "effect"
import express from "express"

const port = Number(process.env.PORT ?? 3000)
const signcraft = makeWebHandler(
  {
    settings: defaultSettings({
      baseUrl: `http://localhost:${port}`, // public links; signcraft is mounted at the root
      operatorToken: process.env.OPERATOR_TOKEN === undefined ? undefined : Redacted.make(process.env.OPERATOR_TOKEN)
    })
  },
  layerDatabase({ _tag: "Embedded", location: { dataDir: ".data/example-express" } })
)

const app = express()
app.get("/", (_req, res) => {
  res.send("The host's own route. signcraft answers /healthz, /docs, /api/v3/… and /operator/v1/…")
})
// Before any body parser: signcraft reads the raw body itself.
app.use(toNodeListener(signcraft.handler))

const server = app.listen(port, "127.0.0.1", () => console.log(`Express + signcraft on http://localhost:${port}/healthz`))
process.once("SIGINT", () => server.close(() => void signcraft.dispose()))
