import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { once } from "node:events"
import { createServer, get } from "node:http"
import type { AddressInfo } from "node:net"
import { type LookupAll, publicOnlyLookup, resolvePublicAddresses } from "../src/index.ts"

const production = { production: true, allowLoopback: false }
const loopbackAllowed = { production: false, allowLoopback: true }

const family = (address: string) => (address.includes(":") ? 6 : 4)
/** A resolver that answers from a table and fails for names it does not know. */
const zone = (records: Record<string, ReadonlyArray<string>>): LookupAll => (name) => {
  const found = records[name]
  return found === undefined
    ? Promise.reject(Object.assign(new Error(`${name} not found`), { code: "ENOTFOUND" }))
    : Promise.resolve(found.map((address) => ({ address, family: family(address) })))
}

const lookup = zone({
  "hooks.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "rebind.example.com": ["93.184.216.34", "10.0.0.7"],
  "private.example.com": ["192.168.1.10"],
  "metadata.example.com": ["169.254.169.254"],
  "mapped.example.com": ["::ffff:7f00:1"],
  "compat.example.com": ["::a9fe:a9fe"],
  "localhost": ["127.0.0.1", "::1"]
})

const outcome = (host: string, policy = production) =>
  resolvePublicAddresses(host, policy, lookup).pipe(
    Effect.match({ onFailure: (error) => error._tag, onSuccess: (addresses) => addresses.map((a) => a.address) })
  )

describe("resolvePublicAddresses (connect-time check)", () => {
  it.effect("returns every address of a name that resolves only to public addresses", () =>
    Effect.gen(function*() {
      expect(yield* outcome("hooks.example.com")).toEqual(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
      expect(yield* outcome("HOOKS.example.com.")).toEqual(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
      expect(yield* outcome("93.184.216.34")).toEqual(["93.184.216.34"])
    }))

  it.effect("refuses a name when any address it resolves to is not public", () =>
    Effect.gen(function*() {
      for (const host of ["rebind.example.com", "private.example.com", "metadata.example.com", "mapped.example.com", "compat.example.com"]) {
        expect(yield* outcome(host), host).toBe("OutboundAddressRefused")
      }
    }))

  it.effect("refuses internal names and non-public literals without resolving them", () =>
    Effect.gen(function*() {
      for (const host of ["localhost", "localhost.", "metadata.google.internal.", "intranet.", "127.0.0.1", "[::7f00:1]", "::ffff:0:7f00:1"]) {
        expect(yield* outcome(host), host).toBe("OutboundAddressRefused")
      }
      expect(yield* outcome("unknown.example.com")).toBe("OutboundLookupFailed")
    }))

  it.effect("lets loopback through only when development allows it", () =>
    Effect.gen(function*() {
      expect(yield* outcome("localhost", loopbackAllowed)).toEqual(["127.0.0.1", "::1"])
      expect(yield* outcome("private.example.com", loopbackAllowed)).toBe("OutboundAddressRefused")
    }))
})

describe("publicOnlyLookup (as the lookup of a real connection)", () => {
  const request = (url: string, lookupFn: ReturnType<typeof publicOnlyLookup>) =>
    new Promise<string>((resolve) => {
      get(url, { lookup: lookupFn, agent: false }, (response) => {
        response.resume()
        resolve(`status ${response.statusCode}`)
      }).on("error", (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`))
    })

  it("refuses to connect to a name that resolves to a private address, connects when allowed", async () => {
    const server = createServer((_req, res) => res.end("ok"))
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    const { port } = server.address() as AddressInfo
    const toLoopback = zone({ "hooks.example.com": ["127.0.0.1"] })
    try {
      expect(await request(`http://hooks.example.com:${port}/`, publicOnlyLookup(production, toLoopback)))
        .toBe("error ERR_OUTBOUND_REFUSED")
      expect(await request(`http://hooks.example.com:${port}/`, publicOnlyLookup(loopbackAllowed, toLoopback)))
        .toBe("status 200")
    } finally {
      server.close()
    }
  })
})
