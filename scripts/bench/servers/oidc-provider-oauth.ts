/**
 * Peer for the OAuth benchmark: panva's oidc-provider configured for the grants we serve: a
 * confidential client `bench` (client_secret_basic) with authorization_code and refresh_token,
 * rotating refresh tokens, PKCE, userinfo (/me) and introspection (/token/introspection).
 * Its store: PostgreSQL when PEER_DATABASE_URL is set, else in memory (peerStore.ts).
 * Codes are minted ahead on a side port, in this process (as the authorization endpoint would):
 * GET http://127.0.0.1:MINT_PORT/codes?count=N&challenge=S256_CHALLENGE answers a JSON array of codes,
 * each with its own Grant. Env: PORT, MINT_PORT, CLIENT_SECRET, REDIRECT_URI, PEER_DATABASE_URL.
 */
import * as jose from "jose"
import { createServer } from "node:http"
import Provider from "oidc-provider"
import { peerAdapter } from "./peerStore.ts"

const port = Number(process.env["PORT"])
const redirectUri = process.env["REDIRECT_URI"]!
const scope = "openid offline_access profile email"

const ed = await jose.generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })
const provider = new Provider(`http://127.0.0.1:${port}`, {
  adapter: await peerAdapter(),
  jwks: { keys: [{ ...(await jose.exportJWK(ed.privateKey)), alg: "EdDSA", use: "sig", kid: "ed" }] },
  clients: [{
    client_id: "bench",
    client_secret: process.env["CLIENT_SECRET"]!,
    token_endpoint_auth_method: "client_secret_basic",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    redirect_uris: [redirectUri],
    id_token_signed_response_alg: "EdDSA"
  }],
  scopes: ["openid", "offline_access", "profile", "email"],
  claims: { openid: ["sub"], profile: ["name", "updated_at"], email: ["email", "email_verified"] },
  rotateRefreshToken: true,
  // Our lifetimes: codes 120 s, access tokens 30 min.
  ttl: { AuthorizationCode: 120, AccessToken: 1800 },
  findAccount: (_ctx, sub) => ({
    accountId: sub,
    claims: () => ({ sub, name: "Bench Mark", email: `${sub}@example.com`, email_verified: true, updated_at: 0 })
  }),
  features: {
    devInteractions: { enabled: false },
    // Like ours: an app introspects its own tokens.
    introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId }
  }
})
const client = (await provider.Client.find("bench"))!

let accounts = 0
const mint = async (challenge: string): Promise<string> => {
  const accountId = `account-${accounts++}`
  const grant = new provider.Grant({ accountId, clientId: "bench" })
  grant.addOIDCScope(scope)
  const grantId = await grant.save()
  return new provider.AuthorizationCode({
    client,
    accountId,
    grantId,
    gty: "authorization_code",
    redirectUri,
    scope,
    authTime: Math.floor(Date.now() / 1000),
    codeChallenge: challenge,
    codeChallengeMethod: "S256"
  }).save()
}

createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost")
  const count = Number(url.searchParams.get("count"))
  const challenge = url.searchParams.get("challenge")
  if (url.pathname !== "/codes" || !Number.isSafeInteger(count) || challenge === null) {
    response.writeHead(404).end()
    return
  }
  // Ten at a time, as many as the PostgreSQL store's pool has connections.
  const codes: Array<string> = []
  while (codes.length < count) {
    codes.push(...await Promise.all(Array.from({ length: Math.min(10, count - codes.length) }, () => mint(challenge))))
  }
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(codes))
}).listen(Number(process.env["MINT_PORT"]), "127.0.0.1", () =>
  createServer(provider.callback()).listen(port, "127.0.0.1", () => process.stdout.write("ready\n")))
