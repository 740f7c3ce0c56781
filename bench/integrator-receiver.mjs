// The integrator of the storefront-design case: a plain node:http server on 127.0.0.1 answering
// every create-product callback with a fresh external_id, in a process of its own so its work is
// counted neither to the server under test nor to the load generator. It does not verify
// signatures: the HTTP suites do (packages/core/test/http/commerce-flow.test.ts); here it only has to answer.
import { createServer } from "node:http"

let counter = 0
const server = createServer((request, response) => {
  request.resume()
  request.on("end", () => {
    counter += 1
    const body = JSON.stringify({ external_id: `bench_prod_${counter}` })
    response.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) })
    response.end(body)
  })
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
