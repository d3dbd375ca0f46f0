import { createServer, type Socket, connect } from "node:net"

export interface TcpProxy {
  readonly port: number
  /** Drops every connection and refuses new ones, as if the target went away. */
  readonly cut: () => void
  /** Accepts and forwards connections again. */
  readonly restore: () => void
  readonly close: () => Promise<void>
}

/** A TCP relay to `host:port` that a test can cut, to make a dependency unreachable on demand. */
export const tcpProxy = (host: string, port: number): Promise<TcpProxy> =>
  new Promise((resolve, reject) => {
    const sockets = new Set<Socket>()
    let open = true
    const server = createServer((client) => {
      if (!open) return void client.destroy()
      const upstream = connect(port, host)
      sockets.add(client).add(upstream)
      client.pipe(upstream).pipe(client)
      const drop = () => {
        client.destroy()
        upstream.destroy()
        sockets.delete(client)
        sockets.delete(upstream)
      }
      client.on("error", drop).on("close", drop)
      upstream.on("error", drop).on("close", drop)
    })
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        cut: () => {
          open = false
          for (const socket of sockets) socket.destroy()
          sockets.clear()
        },
        restore: () => {
          open = true
        },
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })
