/**
 * Peer: panva's oidc-provider with an Ed25519 and an RSA signing key, serving
 * its discovery document and JWKS. Its store (unused by these two documents):
 * PostgreSQL when PEER_DATABASE_URL is set, else in memory (peerStore.ts). Env: PORT, PEER_DATABASE_URL.
 */
import * as jose from "jose"
import { createServer } from "node:http"
import Provider from "oidc-provider"
import { peerAdapter } from "./peerStore.ts"

const port = Number(process.env["PORT"])
const ed = await jose.generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true })
const rsa = await jose.generateKeyPair("RS256", { modulusLength: 2048, extractable: true })
const keys = [
  { ...(await jose.exportJWK(ed.privateKey)), alg: "EdDSA", use: "sig", kid: "ed" },
  { ...(await jose.exportJWK(rsa.privateKey)), alg: "RS256", use: "sig", kid: "rsa" }
]
const provider = new Provider(`http://127.0.0.1:${port}`, {
  adapter: await peerAdapter(),
  jwks: { keys },
  clients: [],
  features: { devInteractions: { enabled: false } }
})
createServer(provider.callback()).listen(port, "127.0.0.1", () => process.stdout.write("ready\n"))
