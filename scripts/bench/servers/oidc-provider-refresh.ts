/**
 * Peer for the refresh benchmark: panva's oidc-provider with refresh-token
 * rotation, a public client `bench`, and COUNT refresh tokens issued at start and
 * written to TOKENS_FILE. Its store: PostgreSQL when PEER_DATABASE_URL is set, else
 * in memory (peerStore.ts). Env: PORT, COUNT, TOKENS_FILE, PEER_DATABASE_URL.
 */
import * as jose from "jose"
import { writeFileSync } from "node:fs"
import { createServer } from "node:http"
import Provider from "oidc-provider"
import { peerAdapter } from "./peerStore.ts"

const port = Number(process.env["PORT"])
const count = Number(process.env["COUNT"] ?? 50)
const ed = await jose.generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })
const provider = new Provider(`http://127.0.0.1:${port}`, {
  adapter: await peerAdapter(),
  jwks: { keys: [{ ...(await jose.exportJWK(ed.privateKey)), alg: "EdDSA", use: "sig", kid: "ed" }] },
  clients: [{
    client_id: "bench",
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    redirect_uris: ["https://bench.example/callback"],
    id_token_signed_response_alg: "EdDSA"
  }],
  scopes: ["openid", "offline_access"],
  rotateRefreshToken: true,
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  features: { devInteractions: { enabled: false } }
})
const client = (await provider.Client.find("bench"))!
const tokens: Array<string> = []
for (let i = 0; i < count; i++) {
  const grant = new provider.Grant({ accountId: `account-${i}`, clientId: "bench" })
  grant.addOIDCScope("openid offline_access")
  const grantId = await grant.save()
  const refreshToken = new provider.RefreshToken({
    client,
    accountId: `account-${i}`,
    grantId,
    scope: "openid offline_access",
    gty: "authorization_code"
  })
  tokens.push(await refreshToken.save())
}
writeFileSync(process.env["TOKENS_FILE"]!, JSON.stringify(tokens))
createServer(provider.callback()).listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
