import { connect, createServer, type Socket } from "node:net"

/** A loopback TCP proxy that can be cut: every connection through it reset, new ones refused. */
export interface TcpProxy {
  readonly port: number
  /** Resets every open connection and drops new ones until {@link TcpProxy.restore}. */
  readonly cut: () => void
  readonly restore: () => void
  readonly close: () => Promise<void>
}

/** Starts a proxy on 127.0.0.1 (any free port) to `target`, as a database restart looks from the client's side. */
export const startTcpProxy = async (target: { readonly host: string; readonly port: number }): Promise<TcpProxy> => {
  const open = new Set<Socket>()
  let isCut = false
  const track = (socket: Socket) => {
    open.add(socket)
    socket.once("close", () => open.delete(socket))
  }
  const server = createServer((client) => {
    if (isCut) {
      client.resetAndDestroy()
      return
    }
    const upstream = connect(target.port, target.host)
    track(client)
    track(upstream)
    client.pipe(upstream)
    upstream.pipe(client)
    client.on("error", () => upstream.destroy())
    upstream.on("error", () => client.destroy())
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    port,
    cut: () => {
      isCut = true
      for (const socket of open) socket.resetAndDestroy()
    },
    restore: () => {
      isCut = false
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy()
        server.close(() => resolve())
      })
  }
}
