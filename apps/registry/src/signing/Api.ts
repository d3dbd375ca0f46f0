import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { SigningKeyList } from "./SigningKey.ts"

const listing =
  "Every release-signing key the registry has made, newest first: the newest active key signs; an older active key " +
  "still verifies the manifests it signed until they expire (a day); a revoked key is listed with its reason and is " +
  "never to be trusted. `public_key` is SPKI PEM (Ed25519)."

/** The keys that sign release manifests (spec 2: GET /v1/keys and /.well-known/silicon-apps-keys.json). */
export class SigningApi extends HttpApiGroup.make("signing")
  .add(
    HttpApiEndpoint.get("keys", "/v1/keys")
      .addSuccess(SigningKeyList)
      .annotate(OpenApi.Description, listing)
  )
  .add(
    HttpApiEndpoint.get("wellKnownKeys", "/.well-known/silicon-apps-keys.json")
      .addSuccess(SigningKeyList)
      .annotate(OpenApi.Description, `The same document as GET /v1/keys, where clients look for it first. ${listing}`)
  )
  .annotate(OpenApi.Title, "Signing keys")
{}
