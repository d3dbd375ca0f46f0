import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Context, Effect, Layer } from "effect"
import { exportJWK, generateKeyPair, SignJWT } from "jose"

/** How the fake provider answers the next sign-in at its /authorize. */
export interface NextAnswer {
  /** The person cancels at the provider: back to redirect_uri with error=access_denied. */
  readonly cancel?: boolean
  /** Claims of the ID token besides iss, aud, nonce, iat and exp (sub and email at least). */
  readonly claims: Readonly<Record<string, unknown>>
  /** Overrides of what a correct ID token carries, to make a bad one. */
  readonly nonce?: string
  readonly audience?: string
  /** Signs the ID token with a key the provider does not publish (same kid). */
  readonly forged?: boolean
  /** The token endpoint refuses the code (400 invalid_grant) or is down (503, not JSON). */
  readonly token?: "invalid_grant" | "down"
}

/** The authorization requests the provider received, as their queries. */
export interface FakeIdp {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  /** A second client the provider knows, for an app that brings its own (byo). */
  readonly byoClient: { readonly clientId: string; readonly clientSecret: string }
  readonly authorizations: Array<URLSearchParams>
  /** Sets the answer to the following sign-ins. */
  answer(next: NextAnswer): void
  close(): Promise<void>
}

interface IssuedCode {
  readonly clientId: string
  readonly redirectUri: string
  readonly challenge: string
  readonly nonce: string | null
  readonly next: NextAnswer
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
  response.end(JSON.stringify(body))
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.on("data", (chunk) => (text += chunk))
    request.on("end", () => resolve(text))
  })

/** The client's credentials, from Basic (form-decoded, RFC 6749 §2.3.1) or the body. */
const clientOf = (request: IncomingMessage, form: URLSearchParams) => {
  const header = request.headers.authorization
  if (header?.startsWith("Basic ")) {
    const [id, secret] = Buffer.from(header.slice(6), "base64").toString().split(":")
    return { id: decodeURIComponent(id ?? ""), secret: decodeURIComponent(secret ?? "") }
  }
  return { id: form.get("client_id") ?? "", secret: form.get("client_secret") ?? "" }
}

/**
 * A small OpenID provider for tests (node:http and jose): discovery, an /authorize that sends the
 * browser straight back with a code (or error=access_denied), a /token that checks the client,
 * redirect_uri and PKCE and answers an RS256 ID token signed with its own key, and its /jwks.
 */
export const startFakeIdp = async (): Promise<FakeIdp> => {
  const { privateKey, publicKey } = await generateKeyPair("RS256")
  const stranger = (await generateKeyPair("RS256")).privateKey
  const kid = "fake-1"
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }
  const clientId = "fake-client.apps.example"
  const clientSecret = `secret-${randomBytes(8).toString("hex")}`
  const byoClient = { clientId: "own-client.apps.example", clientSecret: `own-${randomBytes(8).toString("hex")}` }
  const clients = new Map([[clientId, clientSecret], [byoClient.clientId, byoClient.clientSecret]])
  const codes = new Map<string, IssuedCode>()
  const authorizations: Array<URLSearchParams> = []
  let next: NextAnswer = { claims: { sub: "1000", email: "person@example.com", email_verified: true } }
  let issuer = ""

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", issuer)
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
        code_challenge_methods_supported: ["S256"],
        scopes_supported: ["openid", "email", "profile"]
      })
    }
    if (url.pathname === "/jwks") return json(response, 200, { keys: [jwk] })
    if (url.pathname === "/authorize") {
      const query = url.searchParams
      authorizations.push(query)
      const back = new URL(query.get("redirect_uri")!)
      if (next.cancel === true) {
        back.searchParams.set("error", "access_denied")
      } else {
        const code = randomBytes(16).toString("hex")
        codes.set(code, {
          clientId: query.get("client_id")!,
          redirectUri: query.get("redirect_uri")!,
          challenge: query.get("code_challenge")!,
          nonce: query.get("nonce"),
          next
        })
        back.searchParams.set("code", code)
      }
      back.searchParams.set("state", query.get("state")!)
      response.writeHead(302, { location: back.href })
      return response.end()
    }
    if (url.pathname === "/token" && request.method === "POST") {
      const form = new URLSearchParams(await readBody(request))
      const client = clientOf(request, form)
      if (clients.get(client.id) !== client.secret) return json(response, 401, { error: "invalid_client" })
      const issued = codes.get(form.get("code") ?? "")
      codes.delete(form.get("code") ?? "")
      const verifier = form.get("code_verifier") ?? ""
      const challenge = createHash("sha256").update(verifier).digest("base64url")
      if (
        issued === undefined || issued.clientId !== client.id || issued.redirectUri !== form.get("redirect_uri") ||
        issued.challenge !== challenge
      ) {
        return json(response, 400, { error: "invalid_grant" })
      }
      if (issued.next.token === "invalid_grant") return json(response, 400, { error: "invalid_grant" })
      if (issued.next.token === "down") {
        response.writeHead(503, { "content-type": "text/plain" })
        return response.end("down for maintenance")
      }
      const nonce = issued.next.nonce ?? issued.nonce
      const idToken = await new SignJWT({ ...issued.next.claims, ...(nonce === null ? {} : { nonce }) })
        .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
        .setIssuer(issuer)
        .setAudience(issued.next.audience ?? issued.clientId)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(issued.next.forged === true ? stranger : privateKey)
      return json(response, 200, {
        access_token: randomBytes(16).toString("hex"),
        token_type: "Bearer",
        expires_in: 300,
        scope: "openid email profile",
        id_token: idToken
      })
    }
    json(response, 404, { error: "not_found" })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the fake provider is not listening on a port")
  issuer = `http://127.0.0.1:${address.port}`
  return {
    issuer,
    clientId,
    clientSecret,
    byoClient,
    authorizations,
    answer: (answer) => {
      next = answer
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The fake provider for one test file, closed with it. */
export class FakeIdpServer extends Context.Tag("test/FakeIdpServer")<FakeIdpServer, FakeIdp>() {
  static readonly layer = Layer.scoped(
    FakeIdpServer,
    Effect.acquireRelease(Effect.promise(startFakeIdp), (idp) => Effect.promise(() => idp.close()))
  )
}
