import { describe, expect, it } from "@effect/vitest"
import { checkP256PrivateKey } from "@platform/crypto"
import { generateKeyPairSync } from "node:crypto"
import { Either, Schema } from "effect"
import {
  applyPatch,
  defaultSigninConfig,
  publicSigninView,
  SigninConfig,
  SigninConfigPatch,
  validateSigninConfig
} from "../src/apps/signinConfig/index.ts"

const decode = Schema.decodeUnknownEither(SigninConfigPatch)
const apply = (body: unknown, current = defaultSigninConfig) => applyPatch(current, Schema.decodeUnknownSync(SigninConfigPatch)(body))
const p256 = () => generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey

describe("signin-config idp secrets", () => {
  it("a client secret is set, reported only as client_secret_set, and never in the config", () => {
    const { config, secrets, changed } = apply({ idp_a: { mode: "byo", client_id: "123.apps", client_secret: "s3cret-value" } })
    expect(changed).toBe(true)
    expect(secrets.client_secret).toEqual({ _tag: "Set", value: "s3cret-value" })
    expect(secrets.private_key).toEqual({ _tag: "Unchanged" })
    expect(config.idp_a.client_secret_set).toBe(true)
    expect(JSON.stringify(config)).not.toContain("s3cret-value")
    expect(JSON.stringify(Schema.encodeSync(SigninConfig)(config))).not.toContain("s3cret-value")
    expect(JSON.stringify(publicSigninView(config))).not.toMatch(/s3cret|idp_a|client/)
    expect(Either.isRight(validateSigninConfig(config))).toBe(true)
  })

  it("null removes a stored secret; removing an absent one is no change", () => {
    const withSecret = apply({ idp_a: { client_secret: "abc" } }).config
    const removed = apply({ idp_a: { client_secret: null } }, withSecret)
    expect(removed.secrets.client_secret).toEqual({ _tag: "Removed" })
    expect(removed.config.idp_a.client_secret_set).toBe(false)
    expect(removed.changed).toBe(true)
    expect(apply({ idp_a: { client_secret: null } }).changed).toBe(false)
  })

  it("resetting a whole idp object removes its secret", () => {
    const withKey = apply({ idp_b: { private_key: p256().export({ type: "pkcs8", format: "pem" }) } }).config
    expect(withKey.idp_b.private_key_set).toBe(true)
    const reset = apply({ idp_b: null }, withKey)
    expect(reset.secrets.private_key).toEqual({ _tag: "Removed" })
    expect(reset.config.idp_b).toEqual(defaultSigninConfig.idp_b)
  })

  it("sending the stored secret again is no change when the caller passes it", () => {
    const current = apply({ idp_a: { client_secret: "same" } }).config
    const patch = Schema.decodeUnknownSync(SigninConfigPatch)({ idp_a: { client_secret: "same" } })
    expect(applyPatch(current, patch, { client_secret: "same" }).changed).toBe(false)
    expect(applyPatch(current, patch).changed).toBe(true)
  })

  it("a masks-only patch cannot claim a secret exists", () => {
    const { config } = apply({ idp_a: { mode: "byo", client_id: "x", client_secret_set: true } })
    expect(config.idp_a.client_secret_set).toBe(false)
    expect(validateSigninConfig(config)).toEqual(
      Either.left([{ field: "idp_a.client_secret", message: "is required when idp_a.mode is byo" }])
    )
  })

  it("the private key must be a PKCS#8 PEM of a P-256 key, and is stored canonically", () => {
    const key = p256()
    const pem = String(key.export({ type: "pkcs8", format: "pem" }))
    expect(checkP256PrivateKey(pem.replace(/\n/g, "\r\n"))).toEqual(Either.right(pem))
    const refused = [
      String(key.export({ type: "sec1", format: "pem" })),
      String(generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ type: "pkcs8", format: "pem" })),
      String(generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" })),
      String(generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" })),
      "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----",
      ""
    ]
    for (const bad of refused) expect(Either.isLeft(checkP256PrivateKey(bad))).toBe(true)
  })

  it("a bad private key fails at idp_b.private_key without echoing it", () => {
    const pem = String(generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ type: "pkcs8", format: "pem" }))
    const result = decode({ idp_b: { private_key: pem } }, { errors: "all" })
    expect(Either.isLeft(result)).toBe(true)
    if (Either.isLeft(result)) {
      expect(String(result.left)).toContain("P-256")
      expect(String(result.left)).not.toContain(pem.split("\n")[1])
    }
  })

  it("a client secret of control characters or over 1024 characters is refused", () => {
    expect(Either.isLeft(decode({ idp_a: { client_secret: "a\nb" } }))).toBe(true)
    expect(Either.isLeft(decode({ idp_a: { client_secret: "x".repeat(1025) } }))).toBe(true)
    expect(Either.isLeft(decode({ idp_a: { client_secret: "" } }))).toBe(true)
  })
})
