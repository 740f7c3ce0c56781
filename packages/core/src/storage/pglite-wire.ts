import type { PGlite } from "@electric-sql/pglite"
import { duplexPair, type Duplex } from "node:stream"

// Frontend message codes that precede a normal startup (PostgreSQL protocol §55.7).
const SSL_REQUEST = 80877103
const GSS_ENC_REQUEST = 80877104
const PROTOCOL_V3 = 196608

/**
 * What runs a wire connection's batches: PGlite (see {@link inProcessExecutor}), or in tests a
 * backend that fails on purpose.
 */
export interface BatchExecutor {
  /** Runs one batch of complete frontend messages, handing the backend's reply bytes to `write`. */
  readonly execute: (batch: Uint8Array<ArrayBuffer>, write: (reply: Uint8Array) => void) => Promise<void>
  /** Rolls back a transaction the closed connection left open. */
  readonly rollbackOpenTransaction: () => Promise<void>
}

/** Runs batches on a PGlite instance in this thread. */
export const inProcessExecutor = (db: PGlite): BatchExecutor => ({
  execute: (batch, write) =>
    db.runExclusive(() =>
      db.execProtocolRawStream(batch, {
        // `data` is a view of PGlite's reply buffer, reused by the next call: copy it out.
        onRawData: (data) => {
          if (data.length > 0) write(Buffer.from(data))
        }
      })
    ),
  rollbackOpenTransaction: async () => {
    if (!db.closed && db.isInTransaction()) await db.exec("ROLLBACK")
  }
})

/**
 * Opens a PostgreSQL wire connection whose batches run on `executor`.
 *
 * `@effect/sql-pg` speaks the wire protocol over any duplex stream, so the embedded
 * database runs the same driver, type parsers and SQL as a real PostgreSQL server.
 * PGlite is a single backend: callers must use one connection at a time (the pool
 * is configured with `maxConnections: 1`), so batches are simply executed in order.
 */
export const openWireConnection = (executor: BatchExecutor): Duplex => {
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

  const write = (reply: Uint8Array) => {
    if (server.writable) server.write(reply)
  }

  const drain = async (): Promise<void> => {
    for (let message = nextBatch(); message !== undefined; message = nextBatch()) {
      if (message === "ssl") {
        // "N": no TLS on an in-process stream; the client proceeds in clear.
        server.write(Buffer.from("N"))
        continue
      }
      // A copy with an ArrayBuffer of its own: the message may be a view of a pooled buffer the
      // stream reuses while the batch runs.
      await executor.execute(new Uint8Array(message), write)
    }
  }

  server.on("data", (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    queue = queue.then(drain).catch((error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error))
      // The error goes to the driver's side, which fails the statement on the wire with it. A
      // driver that has already closed the connection no longer listens, and an 'error' event
      // nobody listens to would crash the process: that side is then simply destroyed.
      client.destroy(client.listenerCount("error") > 0 ? failure : undefined)
      server.destroy()
    })
  })
  // A connection that dies inside a transaction must not leave PGlite's single backend stuck in
  // it. The driver either ends its side (after a Terminate) or destroys it; on Node 20 neither
  // closes this side (a pair's sides are half-open and destruction does not cross), so both
  // are watched here.
  let released = false
  const release = () => {
    if (released) return
    released = true
    queue = queue.then(executor.rollbackOpenTransaction).catch(() => {
      // The database is already closing; its own shutdown discards the transaction.
    })
  }
  server.on("end", release)
  client.on("close", release)
  // The driver tunes TCP sockets; an in-process stream has nothing to tune.
  Object.assign(client, { setNoDelay: () => client, setKeepAlive: () => client })
  return client
}

/** Opens a PostgreSQL wire connection to a PGlite database running in this thread. */
export const openPgliteConnection = (db: PGlite): Duplex => openWireConnection(inProcessExecutor(db))
