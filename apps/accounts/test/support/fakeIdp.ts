import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Context, Effect, Layer } from "effect"
import { decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair, jwtVerify, SignJWT } from "jose"

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
  /** The `user` field a form_post answer carries (JSON with the name, on a first authorization). */
  readonly user?: string
}

/** A provider as the tests drive it: its issuer, the authorization requests it received (their queries), its next answer. */
interface FakeProvider {
  readonly issuer: string
  readonly authorizations: Array<URLSearchParams>
  /** Sets the answer to the following sign-ins. */
  answer(next: NextAnswer): void
  close(): Promise<void>
}

export interface FakeIdp extends FakeProvider {
  readonly clientId: string
  readonly clientSecret: string
  /** A second client the provider knows, for an app that brings its own (byo). */
  readonly byoClient: { readonly clientId: string; readonly clientSecret: string }
}

/** A client of idp_b: its ids and the PKCS#8 PEM of the P-256 key its client secrets are signed with. */
export interface FakeSigningClient {
  readonly servicesId: string
  readonly teamId: string
  readonly keyId: string
  readonly privateKey: string
}

export interface FakeIdpB extends FakeProvider {
  /** The deployment's client (managed mode). */
  readonly client: FakeSigningClient
  /** A second client the provider knows, for an app that brings its own (byo). */
  readonly byoClient: FakeSigningClient
  /** A P-256 key the provider knows for no client. */
  readonly strangerKey: string
}

/** How a provider's clients authenticate and how it answers the browser. */
interface ProviderStyle {
  /** Whether the client authenticates with this secret at the token endpoint. */
  readonly clientAuthenticates: (clientId: string, secret: string, issuer: string) => Promise<boolean>
  readonly tokenAuthMethods: ReadonlyArray<string>
  /** The answer sent back by an auto-submitting form POST (response_mode=form_post) rather than a redirect. */
  readonly formPost: boolean
  readonly cancelError: string
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

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/** The page a form_post provider answers with: a form that the browser submits at once. */
const autoSubmittingForm = (action: string, fields: URLSearchParams) =>
  `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(action)}">` +
  [...fields].map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join("") +
  `</form></body></html>`

/**
 * A small OpenID provider for tests (node:http and jose): discovery, an /authorize that sends the
 * browser straight back with a code (or the style's cancel error), by redirect or by form_post, a
 * /token that checks the client, redirect_uri and PKCE and answers an RS256 ID token signed with its
 * own key, and its /jwks.
 */
const startFakeProvider = async (style: ProviderStyle): Promise<FakeProvider> => {
  const { privateKey, publicKey } = await generateKeyPair("RS256")
  const stranger = (await generateKeyPair("RS256")).privateKey
  const kid = "fake-1"
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }
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
        token_endpoint_auth_methods_supported: style.tokenAuthMethods,
        response_modes_supported: style.formPost ? ["query", "form_post"] : ["query"],
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
        back.searchParams.set("error", style.cancelError)
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
      if (next.user !== undefined) back.searchParams.set("user", next.user)
      if (style.formPost && query.get("response_mode") === "form_post") {
        const fields = new URLSearchParams(back.searchParams)
        back.search = ""
        response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        return response.end(autoSubmittingForm(back.href, fields))
      }
      response.writeHead(302, { location: back.href })
      return response.end()
    }
    if (url.pathname === "/token" && request.method === "POST") {
      const form = new URLSearchParams(await readBody(request))
      const client = clientOf(request, form)
      if (!(await style.clientAuthenticates(client.id, client.secret, issuer))) return json(response, 401, { error: "invalid_client" })
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
    authorizations,
    answer: (answer) => {
      next = answer
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** idp_a's fake: clients authenticate with a static secret (Basic or in the body), answers come back by redirect. */
export const startFakeIdp = async (): Promise<FakeIdp> => {
  const clientId = "fake-client.apps.example"
  const clientSecret = `secret-${randomBytes(8).toString("hex")}`
  const byoClient = { clientId: "own-client.apps.example", clientSecret: `own-${randomBytes(8).toString("hex")}` }
  const clients = new Map([[clientId, clientSecret], [byoClient.clientId, byoClient.clientSecret]])
  const provider = await startFakeProvider({
    clientAuthenticates: async (id, secret) => clients.get(id) === secret,
    tokenAuthMethods: ["client_secret_basic", "client_secret_post"],
    formPost: false,
    cancelError: "access_denied"
  })
  return { ...provider, clientId, clientSecret, byoClient }
}

const signingClient = async (servicesId: string, teamId: string, keyId: string) => {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true })
  return { client: { servicesId, teamId, keyId, privateKey: await exportPKCS8(privateKey) }, publicKey }
}

/**
 * Whether `secret` is the client secret JWT idp_b takes: ES256 by the client's key, kid its key id,
 * iss its team, sub its services id, aud the issuer, with iat and an exp at most ten minutes later.
 */
const signedByClient = async (
  secret: string,
  known: { readonly client: FakeSigningClient; readonly publicKey: Awaited<ReturnType<typeof generateKeyPair>>["publicKey"] },
  issuer: string
) => {
  try {
    if (decodeProtectedHeader(secret).kid !== known.client.keyId) return false
    const { payload } = await jwtVerify(secret, known.publicKey, {
      algorithms: ["ES256"],
      issuer: known.client.teamId,
      subject: known.client.servicesId,
      audience: issuer,
      requiredClaims: ["iat", "exp"]
    })
    return payload.exp! - payload.iat! <= 600
  } catch {
    return false
  }
}

/**
 * idp_b's fake: clients authenticate with a client secret JWT signed by their P-256 key
 * (client_secret_post), answers come back by an auto-submitting form_post.
 */
export const startFakeIdpB = async (): Promise<FakeIdpB> => {
  const managed = await signingClient("com.example.accounts.signin", "TEAM000001", "KEY0000001")
  const byo = await signingClient("com.app.own.signin", "TEAM000002", "KEY0000002")
  const strangerKey = (await signingClient("-", "-", "-")).client.privateKey
  const clients = new Map([[managed.client.servicesId, managed], [byo.client.servicesId, byo]])
  const provider = await startFakeProvider({
    clientAuthenticates: async (id, secret, issuer) => {
      const known = clients.get(id)
      return known !== undefined && (await signedByClient(secret, known, issuer))
    },
    tokenAuthMethods: ["client_secret_post"],
    formPost: true,
    cancelError: "user_cancelled_authorize"
  })
  return { ...provider, client: managed.client, byoClient: byo.client, strangerKey }
}

/** The fake idp_b for one test file, closed with it. */
export class FakeIdpBServer extends Context.Tag("test/FakeIdpBServer")<FakeIdpBServer, FakeIdpB>() {
  static readonly layer = Layer.scoped(
    FakeIdpBServer,
    Effect.acquireRelease(Effect.promise(startFakeIdpB), (idp) => Effect.promise(() => idp.close()))
  )
}

/** The fake provider for one test file, closed with it. */
export class FakeIdpServer extends Context.Tag("test/FakeIdpServer")<FakeIdpServer, FakeIdp>() {
  static readonly layer = Layer.scoped(
    FakeIdpServer,
    Effect.acquireRelease(Effect.promise(startFakeIdp), (idp) => Effect.promise(() => idp.close()))
  )
}
