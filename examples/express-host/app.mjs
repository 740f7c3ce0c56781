// An existing Express app with its own /api routes, and signcraft mounted under /signs beside them.
//   BASE_URL     where signcraft is reached; its path is where it is mounted (default http://127.0.0.1:$PORT/signs)
//   DATABASE_URL PostgreSQL; otherwise the embedded database in DATA_DIR (default: a fresh temporary directory)
//   OPERATOR_TOKEN turns on the operator API (/signs/operator/v1/…), which creates Stores and keys
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { toNodeListener } from "@signcraft/adapters"
import { defaultSettings, layerDatabase, makeWebHandler } from "@signcraft/core"
import express from "express"

const env = (name) => (process.env[name]?.trim() ? process.env[name].trim() : undefined)
const port = Number(env("PORT") ?? 3000)
const baseUrl = env("BASE_URL") ?? `http://127.0.0.1:${port}/signs`
const mountPath = new URL(baseUrl).pathname.replace(/\/+$/, "") || "/"

const databaseUrl = env("DATABASE_URL")
const temporaryDir = databaseUrl === undefined && env("DATA_DIR") === undefined
  ? mkdtempSync(join(tmpdir(), "signcraft-express-host-"))
  : undefined
const database = databaseUrl === undefined
  ? { _tag: "Embedded", location: { dataDir: env("DATA_DIR") ?? temporaryDir } }
  : { _tag: "Postgres", url: databaseUrl }

const signcraft = makeWebHandler(
  {
    settings: defaultSettings({ baseUrl, operatorToken: env("OPERATOR_TOKEN"), disable: env("SIGNCRAFT_DISABLE") }),
    deliveryWorker: {}
  },
  layerDatabase(database)
)

const products = [
  { id: 1, name: "Shop front sign", price: 12900 },
  { id: 2, name: "House number plate", price: 3900 }
]

const app = express()
// The host's own API, untouched by signcraft.
app.get("/api/health", (_req, res) => {
  res.json({ ok: true, service: "host" })
})
app.get("/api/products", (_req, res) => {
  res.json({ products })
})
// Before any body parser that would run on its paths: signcraft reads the raw body itself.
app.use(mountPath, toNodeListener(signcraft.handler))
app.use((_req, res) => {
  res.status(404).json({ error: "not_found", service: "host" })
})

const server = app.listen(port, "127.0.0.1", () => {
  console.log(`host on http://127.0.0.1:${port}/api/health, signcraft on ${baseUrl}/healthz`)
})

const shutdown = () => {
  server.close(async () => {
    await signcraft.dispose()
    if (temporaryDir !== undefined) rmSync(temporaryDir, { recursive: true, force: true })
    process.exit(0)
  })
  server.closeAllConnections()
}
process.once("SIGINT", shutdown)
process.once("SIGTERM", shutdown)
