// Starts app.mjs on a free loopback port and checks, from outside, that the host keeps its own
// routes and signcraft answers under /signs only. Exits 0 when every check passes, 1 otherwise.
// Run it beside app.mjs: `node check.mjs` where the packages are installed (npm pack tarballs),
// or in this repository `node --conditions=@signcraft/source --import tsx check.mjs`.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const TOKEN = "express-host-operator-token-0123456789abcdef"

class CheckFailed extends Error {}
const expect = (condition, message) => {
  if (!condition) throw new CheckFailed(message)
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

const call = async (url, { method = "GET", body, headers = {} } = {}) => {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  let json
  try {
    json = text === "" ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

const waitReady = async (url, child, output) => {
  // Bounded, so a start that hangs fails the check; the embedded database starts and migrates first.
  for (let attempt = 0; attempt < 240; attempt++) {
    expect(child.exitCode === null, `app.mjs exited with ${child.exitCode}:\n${output()}`)
    try {
      if ((await fetch(url)).status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new CheckFailed(`app.mjs never answered ${url}:\n${output()}`)
}

const checks = async (origin) => {
  const base = `${origin}/signs`
  const fromSigncraft = (res) => res.headers.get("x-request-id") !== null

  const health = await call(`${origin}/api/health`)
  expect(health.status === 200 && health.json?.service === "host" && !fromSigncraft(health), `host /api/health: ${health.status} ${health.text}`)
  const products = await call(`${origin}/api/products`)
  expect(products.status === 200 && Array.isArray(products.json?.products) && !fromSigncraft(products), `host /api/products: ${products.status} ${products.text}`)

  const healthz = await call(`${base}/healthz`)
  expect(healthz.status === 200 && healthz.json?.status === "ok" && fromSigncraft(healthz), `/signs/healthz: ${healthz.status} ${healthz.text}`)
  const openapi = await call(`${base}/api/v3/openapi.json`)
  expect(openapi.status === 200, `/signs/api/v3/openapi.json: ${openapi.status}`)
  expect(openapi.json?.servers?.[0]?.url === base, `OpenAPI servers ${JSON.stringify(openapi.json?.servers)}, expected ${base}`)

  const operator = { authorization: `Bearer ${TOKEN}` }
  const company = await call(`${base}/operator/v1/companies`, { method: "POST", headers: operator, body: { name: "Host Co" } })
  expect(company.status === 201, `operator API: ${company.status} ${company.text}`)
  const store = await call(`${base}/operator/v1/stores`, {
    method: "POST",
    headers: operator,
    body: { company_id: company.json.id, name: "Host shop", platform: "custom" }
  })
  expect(store.status === 201, `store: ${store.status} ${store.text}`)
  const issued = await call(`${base}/operator/v1/stores/${store.json.id}/api-keys`, {
    method: "POST",
    headers: operator,
    body: { mode: "test", scopes: ["store:read"] }
  })
  expect(issued.status === 201, `api key: ${issued.status} ${issued.text}`)
  const bearer = { authorization: `Bearer ${issued.json.key}` }

  const me = await call(`${base}/api/v3/stores/me`, { headers: bearer })
  expect(me.status === 200 && me.json?.data?.id === store.json.id, `/signs/api/v3/stores/me: ${me.status} ${me.text}`)
  for (const [name, link] of Object.entries(me.json.links)) {
    expect(typeof link === "string" && link.startsWith(`${base}/`), `links.${name} is ${link}, not under ${base}`)
  }

  // Outside /signs the path is the host's, even where signcraft has that path under /signs.
  const outside = await call(`${origin}/api/v3/stores/me`, { headers: bearer })
  expect(outside.status === 404 && outside.json?.service === "host" && !fromSigncraft(outside), `/api/v3/stores/me outside /signs: ${outside.status} ${outside.text}`)
}

const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000)
    child.once("exit", () => {
      clearTimeout(killer)
      resolve()
    })
    child.kill("SIGTERM")
  })

const main = async () => {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), "signcraft-express-host-check-"))
  let output = ""
  // The same Node flags as this process: in the repository they resolve the packages to their source.
  const child = spawn(process.execPath, [...process.execArgv, join(here, "app.mjs")], {
    cwd: here,
    env: {
      ...process.env,
      PORT: String(port),
      BASE_URL: `${origin}/signs`,
      OPERATOR_TOKEN: TOKEN,
      ...(dataDir === undefined ? {} : { DATA_DIR: dataDir })
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  try {
    await waitReady(`${origin}/signs/healthz`, child, () => output)
    await checks(origin)
    console.log("express-host: every check passed")
    return 0
  } catch (error) {
    console.error(`express-host: ${error instanceof CheckFailed ? error.message : error}`)
    return 1
  } finally {
    await stop(child)
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
