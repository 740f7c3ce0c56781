// The Next.js leg of CI: builds this example app with Turbopack and with webpack, checks that
// `next build` opens no database, then starts each build and drives signcraft through it (the
// embedded database, or PostgreSQL when DATABASE_URL is set). Run after `npm run build`: the app
// imports the packages as an installed app would, from their dist.
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const app = dirname(fileURLToPath(import.meta.url))
const nextBin = join(app, "..", "..", "node_modules", "next", "dist", "bin", "next")
const TOKEN = "next-leg-operator-token-0123456789abcdef"
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", OPERATOR_TOKEN: TOKEN }

const fail = (message) => {
  console.error(`next leg: ${message}`)
  process.exitCode = 1
  throw new Error(message)
}
const expect = (condition, message) => condition || fail(message)

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const call = async (base, method, path, { body, headers = {} } = {}) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, json: text === "" ? undefined : JSON.parse(text) }
}

const waitHealthy = async (base, server) => {
  // Bounded: 120 tries of 500 ms.
  for (let attempt = 0; attempt < 120; attempt++) {
    if (server.exitCode !== null) fail(`next start exited with ${server.exitCode}`)
    try {
      const health = await call(base, "GET", "/healthz")
      if (health.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  fail("the app never answered /healthz")
}

const exercise = async (base) => {
  const operator = { authorization: `Bearer ${TOKEN}` }
  const company = await call(base, "POST", "/operator/v1/companies", { headers: operator, body: { name: "Acme" } })
  expect(company.status === 201, `operator API with OPERATOR_TOKEN set answered ${company.status}: ${company.text}`)
  const store = await call(base, "POST", "/operator/v1/stores", {
    headers: operator,
    body: { company_id: company.json.id, name: "Next shop", platform: "shopify" }
  })
  expect(store.status === 201, `store: ${store.status} ${store.text}`)
  const key = await call(base, "POST", `/operator/v1/stores/${store.json.id}/api-keys`, {
    headers: operator,
    body: { mode: "test", scopes: ["store:read", "customisers:read", "pricing:read", "pricing:write"] }
  })
  expect(key.status === 201, `api key: ${key.status} ${key.text}`)
  const bearer = { authorization: `Bearer ${key.json.key}` }

  const me = await call(base, "GET", "/api/v3/stores/me", { headers: bearer })
  expect(me.status === 200 && me.json.data.id === store.json.id, `stores/me: ${me.status} ${me.text}`)
  expect(me.headers.get("ratelimit-policy") !== null, "stores/me carries no RateLimit-Policy")

  const customiser = await call(base, "POST", `/operator/v1/stores/${store.json.id}/customisers`, {
    headers: operator,
    body: { name: "Neon", product_family: "neon", selection_mode: "single_style", pricing_model: "simple_letter" }
  })
  expect(customiser.status === 201, `customiser: ${customiser.status} ${customiser.text}`)
  const pricingPath = `/api/v3/customisers/${customiser.json.id}/pricing`
  const write = { headers: { ...bearer, "idempotency-key": `next-leg-${Date.now()}` }, body: { sizes: [{ name: "Small", line_limit: 2 }] } }
  const first = await call(base, "PUT", pricingPath, write)
  expect(first.status === 200, `pricing write: ${first.status} ${first.text}`)
  const replay = await call(base, "PUT", pricingPath, write)
  expect(replay.status === 200 && replay.text === first.text, `the idempotent replay differs: ${replay.status} ${replay.text}`)

  const invalid = await call(base, "PUT", pricingPath, {
    headers: { ...bearer, "idempotency-key": `next-leg-bad-${Date.now()}` },
    body: { sizes: [{ name: "Small", line_limit: 2 }], price_list: [] }
  })
  expect(
    invalid.status === 422 && invalid.json.code === "validation_failed" && invalid.json.errors.some((error) => error.code === "unknown_field"),
    `a misspelt member answered ${invalid.status}: ${invalid.text}`
  )

  const preflight = await fetch(`${base}/storefront/v1/customisers/${customiser.json.id}/form-submissions`, {
    method: "OPTIONS",
    headers: { origin: "https://shop.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" }
  })
  expect(preflight.status === 204 && preflight.headers.get("access-control-allow-origin") === "*", `storefront preflight: ${preflight.status}`)
}

const run = async (bundler) => {
  const dataDir = mkdtempSync(join(tmpdir(), "signcraft-next-leg-"))
  const database = process.env.DATABASE_URL ? "PostgreSQL" : "embedded"
  rmSync(dataDir, { recursive: true })
  rmSync(join(app, ".next"), { recursive: true, force: true })
  const legEnv = { ...env, DATA_DIR: dataDir }
  console.log(`== next build (${bundler}, ${database})`)
  const build = spawnSync(process.execPath, [nextBin, "build", ...(bundler === "webpack" ? ["--webpack"] : [])], {
    cwd: app,
    env: legEnv,
    stdio: "inherit",
    timeout: 600_000
  })
  expect(build.status === 0, `next build (${bundler}) exited with ${build.status}`)
  expect(!existsSync(dataDir), `next build (${bundler}) opened the embedded database`)

  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // As the example's `npm start` runs it: Next.js leaves SIGTERM to the app, which closes the database.
  const server = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: app,
    env: { ...legEnv, BASE_URL: base, NEXT_MANUAL_SIG_HANDLE: "true" },
    stdio: ["ignore", "inherit", "inherit"]
  })
  try {
    await waitHealthy(base, server)
    await exercise(base)
    server.kill("SIGTERM")
    const code = await new Promise((resolve) => (server.exitCode === null ? server.once("exit", (exitCode) => resolve(exitCode)) : resolve(server.exitCode)))
    expect(code === 0, `next start exited with ${code} on SIGTERM`)
    // A database closed cleanly leaves no lock file: the next start runs no crash recovery.
    expect(database !== "embedded" || !existsSync(join(dataDir, "postmaster.pid")), "SIGTERM left the embedded database's postmaster.pid behind")
    console.log(`== next ${bundler} (${database}): every check passed`)
  } finally {
    if (server.exitCode === null) server.kill("SIGTERM")
    await new Promise((resolve) => (server.exitCode === null ? server.once("exit", resolve) : resolve()))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await run("turbopack")
await run("webpack")
