import { TestDatabase } from "@platform/database"
import { SigningKeys, SigningKeysMigration } from "@platform/signing-keys"
import { Context, Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { listening } from "@platform/testkit"

export interface ServedJwks {
  /** Where the JWKS is served. */
  readonly url: string
  /** How many times it was fetched so far. */
  readonly fetches: () => number
  /** Makes every fetch answer this status (an outage), or the keys again with undefined. */
  readonly failWith: (status: number | undefined) => void
}

/** The JWKS of a real SigningKeys service, served over HTTP on a free port as an issuer would. */
export class JwksServer extends Context.Tag("test/JwksServer")<JwksServer, ServedJwks>() {}

const serveJwks = Effect.gen(function*() {
  const keys = yield* SigningKeys
  let fetches = 0
  let failing: number | undefined
  const server = createServer((_request, response) => {
    fetches += 1
    if (failing !== undefined) {
      response.writeHead(failing).end()
      return
    }
    response.writeHead(200, { "content-type": "application/json" }).end(keys.currentJwksJson())
  })
  const origin = yield* listening(server)
  return JwksServer.of({
    url: `${origin}/.well-known/jwks.json`,
    fetches: () => fetches,
    failWith: (status) => {
      failing = status
    }
  })
})

/** Signing keys on a fresh database, and their JWKS served over HTTP. */
export const IssuerKeys = Layer.scoped(JwksServer, serveJwks).pipe(
  Layer.provideMerge(SigningKeys.layer({ encryptionKey: Option.none(), refreshSeconds: 10 })),
  Layer.provide(TestDatabase.layer({ "0001_signing_keys": SigningKeysMigration }))
)
