import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

/** One request a receiver got: its headers and the exact bytes of its body. */
export interface ReceivedDelivery {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly rawBody: Buffer
  readonly receivedAt: number
}

/** A receiver's answer: a status alone, or a status with headers (`Retry-After`, say). */
export type ReceiverAnswer = number | { readonly status: number; readonly headers?: Readonly<Record<string, string>> }

/** A real HTTP receiver on 127.0.0.1 (port 0) that records every request. */
export interface Receiver {
  readonly url: (path?: string) => string
  readonly received: ReadonlyArray<ReceivedDelivery>
  /** Resolves once `predicate` holds for the requests so far; fails after `timeoutMs`. */
  readonly waitFor: (predicate: (received: ReadonlyArray<ReceivedDelivery>) => boolean, timeoutMs?: number) => Promise<void>
  readonly close: () => Promise<void>
}

/**
 * Starts a receiver on `port` (0: any free port). `answer` picks the status of each request from the request and how many
 * requests with the same `x-webhook-id` came before it (0 on the first); 200 by default.
 */
export const startReceiver = async (
  answer: (request: ReceivedDelivery, previousWithSameId: number) => ReceiverAnswer = () => 200,
  port = 0
): Promise<Receiver> => {
  const received: Array<ReceivedDelivery> = []
  const waiters = new Set<() => void>()
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const delivery: ReceivedDelivery = {
        path: req.url ?? "/",
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now()
      }
      const id = req.headers["x-webhook-id"] ?? req.headers["webhook-id"]
      const previous = received.filter((r) => (r.headers["x-webhook-id"] ?? r.headers["webhook-id"]) === id).length
      received.push(delivery)
      const answered = answer(delivery, previous)
      const status = typeof answered === "number" ? answered : answered.status
      res.writeHead(status, { "content-type": "application/json", ...(typeof answered === "number" ? {} : answered.headers) })
      res.end(status >= 200 && status < 300 ? JSON.stringify({ ok: true }) : JSON.stringify({ error: "nope" }))
      for (const wake of waiters) wake()
    })
  })
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  const bound = (server.address() as AddressInfo).port
  const waitFor = (predicate: (received: ReadonlyArray<ReceivedDelivery>) => boolean, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate(received)) return
        clearTimeout(timer)
        waiters.delete(check)
        resolve()
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`receiver: condition not met within ${timeoutMs} ms (${received.length} requests)`))
      }, timeoutMs)
      waiters.add(check)
      check()
    })
  return {
    url: (path = "/hook") => `http://127.0.0.1:${bound}${path}`,
    received,
    waitFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** The parsed JSON body of a delivery. */
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
export const jsonOf = (delivery: ReceivedDelivery): any => JSON.parse(delivery.rawBody.toString("utf8"))
