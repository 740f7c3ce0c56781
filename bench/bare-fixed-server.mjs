// Baseline (a) of `npm run bench`: the runtime's limit. A bare node:http server answering one
// fixed, small JSON body to every request, run with plain node (no tsx, no framework, no
// per-request work). PORT in the environment; prints "ready" once listening on 127.0.0.1.
import { createServer } from "node:http"

const body = Buffer.from(JSON.stringify({ ok: true, service: "bare" }))
const headers = { "content-type": "application/json", "content-length": String(body.length) }

const server = createServer((_request, response) => {
  response.writeHead(200, headers)
  response.end(body)
})

server.listen(Number(process.env.PORT ?? "0"), "127.0.0.1", () => {
  process.stdout.write("ready\n")
})

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.closeAllConnections()
    server.close(() => process.exit(0))
  })
}
