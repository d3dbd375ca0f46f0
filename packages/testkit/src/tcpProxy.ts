import { createServer, type Socket, connect } from "node:net"

export interface TcpProxy {
  readonly port: number
  /** Drops every connection and refuses new ones, as if the target went away. */
  readonly cut: () => void
  /** Keeps every connection open but forwards nothing, new ones included, as if packets were dropped. */
  readonly stall: () => void
  /** Accepts and forwards connections again (what a stall held back flows on). */
  readonly restore: () => void
  readonly close: () => Promise<void>
}

interface Relay {
  readonly client: Socket
  readonly upstream: Socket
}

const forward = ({ client, upstream }: Relay) => {
  client.pipe(upstream)
  upstream.pipe(client)
}

const hold = ({ client, upstream }: Relay) => {
  client.unpipe(upstream)
  upstream.unpipe(client)
  client.pause()
  upstream.pause()
}

/** A TCP relay to `host:port` that a test can cut or stall, to make a dependency unreachable on demand. */
export const tcpProxy = (host: string, port: number): Promise<TcpProxy> =>
  new Promise((resolve, reject) => {
    const relays = new Set<Relay>()
    let state: "open" | "cut" | "stalled" = "open"
    const server = createServer((client) => {
      if (state === "cut") return void client.destroy()
      const relay = { client, upstream: connect(port, host) }
      relays.add(relay)
      if (state === "open") forward(relay)
      else hold(relay)
      const drop = () => {
        client.destroy()
        relay.upstream.destroy()
        relays.delete(relay)
      }
      client.on("error", drop).on("close", drop)
      relay.upstream.on("error", drop).on("close", drop)
    })
    const dropAll = () => {
      for (const { client, upstream } of relays) {
        client.destroy()
        upstream.destroy()
      }
      relays.clear()
    }
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        cut: () => {
          state = "cut"
          dropAll()
        },
        stall: () => {
          state = "stalled"
          relays.forEach(hold)
        },
        restore: () => {
          if (state === "stalled") relays.forEach(forward)
          state = "open"
        },
        close: () =>
          new Promise((done) => {
            dropAll()
            server.close(() => done())
          })
      })
    })
  })
