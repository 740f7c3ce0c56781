import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { verifyWebhook } from "@signcraft/core/api"

/** What the integrator's receiver does with the next create-product call. */
export type ReceiverBehaviour = "external_id" | "numeric_id" | "status_500" | "no_external_id" | "not_json" | "redirect"

/** One call the receiver got, with whether its signature verified with the expected secret. */
export interface ReceivedCall {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: string
  readonly verified: boolean
}

/**
 * A real HTTP receiver on 127.0.0.1 playing the integrator: verifies each call's signature with
 * the core verifier against the raw body, then answers as told.
 */
export const startIntegrator = async () => {
  const calls: Array<ReceivedCall> = []
  let secret = ""
  // Webhook subscriptions deliver to /hooks/…, each signed with its own subscription secret.
  const hookSecrets = new Map<string, string>()
  let behaviour: ReceiverBehaviour = "external_id"
  let counter = 0
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8")
      const path = req.url ?? ""
      const verified = verifyWebhook({ rawBody, headers: req.headers, secret: hookSecrets.get(path) ?? secret }).ok
      calls.push({ path: req.url ?? "", headers: req.headers, rawBody, verified })
      counter += 1
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
      if (!verified) return json(401, { error: "bad signature" })
      if (hookSecrets.has(path)) return json(200, { ok: true, external_id: `hook_${counter}` })
      switch (behaviour) {
        case "external_id":
          return json(200, { external_id: `shop_prod_${counter}` })
        case "numeric_id":
          return json(200, { external_id: 9000 + counter })
        case "status_500":
          return json(500, { error: "boom" })
        case "no_external_id":
          return json(200, { ok: true })
        case "not_json":
          return res.writeHead(200, { "content-type": "text/plain" }).end("external_id=1")
        case "redirect":
          return res.writeHead(302, { location: "/elsewhere" }).end()
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/products`,
    calls,
    useSecret: (value: string) => {
      secret = value
    },
    /** Where a webhook subscription should deliver, and the secret its deliveries are signed with. */
    hookUrl: (path: string) => `http://127.0.0.1:${port}${path}`,
    useHookSecret: (path: string, value: string) => {
      hookSecrets.set(path, value)
    },
    answer: (next: ReceiverBehaviour) => {
      behaviour = next
    },
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
