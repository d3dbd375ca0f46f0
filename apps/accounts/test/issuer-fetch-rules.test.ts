import { describe, expect, it, layer } from "@effect/vitest"
import { boundedGet, publicOnlyLookup } from "@platform/outbound"
import { listening } from "@platform/testkit"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import { createServer as createHttpsServer } from "node:https"
import { createServer as createTcpServer, type Socket } from "node:net"
import { AccountsConfigOf } from "../src/config.ts"
import { ISSUER_FETCH, IssuerKeys } from "../src/federations/IssuerKeys.ts"
import { testSettings } from "./support/AccountsUnderTest.ts"
import { OutsideIssuer, OutsideIssuerLive, testCertificates } from "./support/outsideIssuer.ts"

const portOf = (origin: string) => Number(new URL(origin).port)

const loopbackLookup = publicOnlyLookup({ production: false, allowLoopback: true })

const fetchWithin = (port: number, deadlines: { readonly connect: Duration.DurationInput; readonly total: Duration.DurationInput }, ca?: string) =>
  Effect.flip(boundedGet({
    url: new URL(`https://127.0.0.1:${port}/.well-known/openid-configuration`),
    lookup: loopbackLookup,
    connectTimeout: deadlines.connect,
    totalTimeout: deadlines.total,
    maxBytes: ISSUER_FETCH.maxBytes,
    ...(ca === undefined ? {} : { extraCertificates: [ca] })
  }))

describe("issuer fetches give up at their deadlines (boundedGet, the deadlines made short)", () => {
  it.scoped("no TLS connection within the connect deadline: a server that accepts and never speaks", () =>
    Effect.gen(function*() {
      const accepted: Array<Socket> = []
      const silent = createTcpServer((socket) => accepted.push(socket))
      const port = portOf(yield* listening(silent))
      yield* Effect.addFinalizer(() => Effect.sync(() => accepted.forEach((socket) => socket.destroy())))
      const failed = yield* fetchWithin(port, { connect: Duration.millis(300), total: Duration.seconds(30) })
      expect(failed.reason).toMatch(/^no connection within /)
    }), { timeout: 20_000 })

  it.scoped("a connection but no complete answer within the total deadline: a server that never finishes its body", () =>
    Effect.gen(function*() {
      const certificates = yield* Effect.promise(testCertificates)
      const stalling = createHttpsServer({ key: certificates.keyPem, cert: certificates.certPem }, (_request, response) => {
        response.writeHead(200, { "content-type": "application/json" })
        response.write("{\"issuer\":")
      })
      const port = portOf(yield* listening(stalling))
      const failed = yield* fetchWithin(port, { connect: Duration.seconds(30), total: Duration.millis(500) }, certificates.caPem)
      expect(failed.reason).toMatch(/^no complete answer within /)
    }), { timeout: 20_000 })
})

const KeysWithIssuer = Layer.unwrapEffect(Effect.map(OutsideIssuer, (issuer) =>
  IssuerKeys.Default.pipe(
    Layer.provide(AccountsConfigOf(testSettings(1, { webhookAllowLoopback: true, issuerExtraCa: Option.some(issuer.caPem) })))
  ))).pipe(Layer.provideMerge(OutsideIssuerLive))

layer(KeysWithIssuer)("an issuer's keys are kept 10 minutes (time from the Clock)", (it) => {
  it.effect("a known kid is answered from memory until the keys are 10 minutes old, then they are fetched again", () =>
    Effect.gen(function*() {
      const server = yield* OutsideIssuer
      const keys = yield* IssuerKeys
      const tenant = yield* Effect.promise(() => server.tenant("kept"))
      const known = () => Effect.map(keys.keysFor(tenant.issuer, "kept-1"), Option.isSome)

      expect(yield* known()).toBe(true)
      expect(tenant.jwksFetches()).toBe(1)
      yield* TestClock.adjust(Duration.subtract(ISSUER_FETCH.keysCache, Duration.seconds(1)))
      expect(yield* known()).toBe(true)
      expect(tenant.jwksFetches()).toBe(1)
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* known()).toBe(true)
      expect(tenant.jwksFetches()).toBe(2)
    }))
})
