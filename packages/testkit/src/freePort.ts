import { randomInt } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"

/**
 * Where the kernel picks ports for `listen(0)` and for outgoing connections. A port handed out from inside
 * it can be taken by any connection the machine opens before the server binds it, so ports are chosen
 * below it, where only an explicit bind takes one.
 */
const ephemeralStart = (): number => {
  try {
    const [start] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)
    return Number(start) > 11_000 ? Number(start) : 32_768
  } catch {
    return 32_768
  }
}
const lowest = 10_000
const highest = ephemeralStart() - 1

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(false))
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
  })

/**
 * A TCP port free a moment ago on 127.0.0.1 (for servers whose public URL must be known before they listen),
 * chosen at random outside the ephemeral range: two test files asking at once rarely meet, and no outgoing
 * connection takes it in between.
 */
export const freePort = async (): Promise<number> => {
  for (let tries = 0; tries < 100; tries++) {
    const port = randomInt(lowest, highest + 1)
    if (await bindable(port)) return port
  }
  throw new Error(`no free port between ${lowest} and ${highest} on 127.0.0.1 after 100 tries`)
}
