import type { PGlite } from "@electric-sql/pglite"
import { duplexPair, type Duplex } from "node:stream"

// Frontend message codes that precede a normal startup (PostgreSQL protocol §55.7).
const SSL_REQUEST = 80877103
const GSS_ENC_REQUEST = 80877104
const PROTOCOL_V3 = 196608

/**
 * Opens an in-process PostgreSQL wire connection to an embedded PGlite database.
 *
 * `@effect/sql-pg` speaks the wire protocol over any duplex stream, so the embedded
 * database runs the same driver, type parsers and SQL as a real PostgreSQL server.
 * PGlite is a single backend: callers must use one connection at a time (the pool
 * is configured with `maxConnections: 1`), so messages are simply executed in order.
 */
export const openPgliteConnection = (db: PGlite): Duplex => {
  const [client, server] = duplexPair()
  let buffer: Buffer = Buffer.alloc(0)
  let started = false
  let queue: Promise<void> = Promise.resolve()

  const nextMessage = (): Buffer | "ssl" | undefined => {
    if (!started) {
      if (buffer.length < 8) return undefined
      const length = buffer.readInt32BE(0)
      const code = buffer.readInt32BE(4)
      if (length === 8 && (code === SSL_REQUEST || code === GSS_ENC_REQUEST)) {
        buffer = buffer.subarray(8)
        return "ssl"
      }
      if (code !== PROTOCOL_V3 || buffer.length < length) return undefined
      started = true
      const message = buffer.subarray(0, length)
      buffer = buffer.subarray(length)
      return message
    }
    if (buffer.length < 5) return undefined
    const length = 1 + buffer.readInt32BE(1)
    if (buffer.length < length) return undefined
    const message = buffer.subarray(0, length)
    buffer = buffer.subarray(length)
    return message
  }

  // Every complete message that has arrived, as one batch: PGlite runs a batch in one call into
  // its backend, and the driver writes a statement's Bind, Execute and Sync together.
  const nextBatch = (): Buffer | "ssl" | undefined => {
    const first = nextMessage()
    if (first === undefined || first === "ssl" || !started) return first
    const batch: Array<Buffer> = [first]
    for (let message = nextMessage(); message !== undefined; message = nextMessage()) {
      if (message === "ssl") throw new Error("SSLRequest after startup")
      batch.push(message)
    }
    return batch.length === 1 ? first : Buffer.concat(batch)
  }

  const drain = async (): Promise<void> => {
    for (let message = nextBatch(); message !== undefined; message = nextBatch()) {
      if (message === "ssl") {
        // "N": no TLS on an in-process stream; the client proceeds in clear.
        server.write(Buffer.from("N"))
        continue
      }
      const bytes = new Uint8Array(message)
      await db.runExclusive(() =>
        db.execProtocolRawStream(bytes, {
          onRawData: (data) => {
            if (data.length > 0 && server.writable) server.write(Buffer.from(data))
          }
        })
      )
    }
  }

  server.on("data", (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    queue = queue.then(drain).catch((error: unknown) => {
      server.destroy(error instanceof Error ? error : new Error(String(error)))
    })
  })
  server.on("close", () => {
    // A connection that dies inside a transaction must not leave PGlite's single
    // backend stuck in it.
    queue = queue.then(async () => {
      if (!db.closed && db.isInTransaction()) await db.exec("ROLLBACK")
    }).catch(() => {
      // The database is already closing; its own shutdown discards the transaction.
    })
  })
  // The driver tunes TCP sockets; an in-process stream has nothing to tune.
  Object.assign(client, { setNoDelay: () => client, setKeepAlive: () => client })
  return client
}
