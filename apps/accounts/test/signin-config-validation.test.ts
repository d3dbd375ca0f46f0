import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import {
  applyPatch,
  defaultSigninConfig,
  type FieldProblem,
  SigninConfigPatch,
  toValidationFailed,
  validateSigninConfig
} from "../src/apps/signinConfig/index.ts"

/** The problems of the default config with `body` applied, as path → message. */
const problems = (body: unknown): Record<string, string> => {
  const { config } = applyPatch(defaultSigninConfig, Schema.decodeUnknownSync(SigninConfigPatch)(body))
  return Either.match(validateSigninConfig(config), {
    onLeft: (list: ReadonlyArray<FieldProblem>) => toValidationFailed(list).details?.fields ?? {},
    onRight: () => ({})
  })
}
const paths = (body: unknown) => Object.keys(problems(body)).sort()
const urls = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i))

describe("signin_config validation", () => {
  it("the default config is valid", () => {
    expect(validateSigninConfig(defaultSigninConfig)).toEqual(Either.right(defaultSigninConfig))
  })

  it("at least one method is enabled", () => {
    expect(problems({ methods: { email: false } })).toEqual({ methods: "must enable at least one method" })
    expect(paths({ methods: { email: false, phone: true } })).toEqual([])
  })

  it("method_order is a permutation of the four methods", () => {
    expect(paths({ method_order: ["email", "phone"] })).toEqual(["method_order"])
    expect(paths({ method_order: ["email", "email", "idp_a", "idp_b"] })).toEqual(["method_order"])
    expect(paths({ method_order: ["phone", "email", "idp_b", "idp_a"] })).toEqual([])
  })

  it("list sizes: 50 redirect URIs and origins, 100 email domains", () => {
    expect(paths({ redirect_uris: urls(50, (i) => `https://app.example/cb${i}`) })).toEqual([])
    expect(paths({ redirect_uris: urls(51, (i) => `https://app.example/cb${i}`) })).toEqual(["redirect_uris"])
    expect(paths({ allowed_origins: urls(51, (i) => `https://app${i}.example`) })).toEqual(["allowed_origins"])
    expect(paths({ allowed_email_domains: urls(100, (i) => `d${i}.example.com`) })).toEqual([])
    expect(paths({ allowed_email_domains: urls(101, (i) => `d${i}.example.com`) })).toEqual(["allowed_email_domains"])
  })

  it("redirect URIs are absolute https URLs without fragment; http only on loopback", () => {
    expect(paths({
      redirect_uris: [
        "https://app.example/cb?x=1",
        "http://localhost:3000/cb",
        "http://127.0.0.1/cb",
        "http://[::1]:8080/cb",
        "http://app.example/cb",
        "https://app.example/cb#frag",
        "/relative",
        "myapp://cb",
        "https://user:pw@app.example/cb",
        "https://app.example/cb?x=1"
      ]
    })).toEqual(["redirect_uris.4", "redirect_uris.5", "redirect_uris.6", "redirect_uris.7", "redirect_uris.8", "redirect_uris.9"])
    expect(problems({ redirect_uris: ["https://a.example/", "https://a.example/"] })).toEqual({ "redirect_uris.1": "is a duplicate" })
  })

  it("allowed origins are scheme://host[:port] exactly as browsers send them", () => {
    const result = problems({
      allowed_origins: ["https://app.example", "https://app.example:8443", "http://localhost:5173", "https://app.example/", "https://APP.example", "https://app.example:443", "http://app.example", "app.example"]
    })
    expect(Object.keys(result)).toEqual(["allowed_origins.3", "allowed_origins.4", "allowed_origins.5", "allowed_origins.6", "allowed_origins.7"])
    expect(result["allowed_origins.3"]).toContain("https://app.example")
  })

  it("email domains are lower-case hostnames", () => {
    expect(paths({ allowed_email_domains: ["example.com", "xn--bcher-kva.de", "Example.com", "com", "-bad.com", "a_b.com", "user@example.com"] }))
      .toEqual(["allowed_email_domains.2", "allowed_email_domains.3", "allowed_email_domains.4", "allowed_email_domains.5", "allowed_email_domains.6"])
  })

  it("detail names appear once and never both required and optional", () => {
    expect(problems({ required_fields: ["email", "dob"], optional_fields: ["phone", "email"] }))
      .toEqual({ "optional_fields.1": "email is already in required_fields" })
    expect(paths({ required_fields: ["dob", "dob"] })).toEqual(["required_fields.1"])
  })

  it("idp_a byo needs a client_id and a client secret; client_id is at most 255 characters", () => {
    expect(problems({ idp_a: { mode: "byo" } })).toEqual({
      "idp_a.client_id": "is required when idp_a.mode is byo",
      "idp_a.client_secret": "is required when idp_a.mode is byo"
    })
    expect(paths({ idp_a: { mode: "byo", client_id: "id", client_secret: "secret" } })).toEqual([])
    expect(paths({ idp_a: { client_id: "x".repeat(256) } })).toEqual(["idp_a.client_id"])
    expect(paths({ idp_a: { client_id: "x".repeat(255) } })).toEqual([])
    expect(paths({ idp_a: { hosted_domain: "Corp.Example" } })).toEqual(["idp_a.hosted_domain"])
  })

  it("idp_b byo needs services_id, team_id, key_id and a private key; team and key ids are 10 characters", () => {
    expect(paths({ idp_b: { mode: "byo" } })).toEqual(["idp_b.key_id", "idp_b.private_key", "idp_b.services_id", "idp_b.team_id"])
    expect(paths({ idp_b: { team_id: "ABCDE12345", key_id: "ABC123" } })).toEqual(["idp_b.key_id"])
    expect(paths({ idp_b: { team_id: "abcde12345" } })).toEqual(["idp_b.team_id"])
    expect(paths({ idp_b: { services_id: "com.example web" } })).toEqual(["idp_b.services_id"])
  })

  it("radius 0 to 40 and logo_height 16 to 96, whole px", () => {
    expect(paths({ branding: { radius: 0, logo_height: 16 } })).toEqual([])
    expect(paths({ branding: { radius: 40, logo_height: 96 } })).toEqual([])
    expect(paths({ branding: { radius: 41, logo_height: 15 } })).toEqual(["branding.logo_height", "branding.radius"])
    expect(paths({ branding: { radius: -1, logo_height: 97 } })).toEqual(["branding.logo_height", "branding.radius"])
  })

  it("a fraction of a px is refused as the patch is read, with the field's own message", () => {
    const refused = Schema.decodeUnknownEither(SigninConfigPatch)({ branding: { radius: 4.5, logo_height: 40 } })
    const [first] = Either.isLeft(refused) ? ParseResult.ArrayFormatter.formatErrorSync(refused.left) : []
    expect(first).toMatchObject({ path: ["branding", "radius"], message: "must be a whole number of px from 0 to 40" })
    expect(Either.isLeft(Schema.decodeUnknownEither(SigninConfigPatch)({ branding: { logo_height: Number.NaN } }))).toBe(true)
  })

  it("font_family is a plain list of family names", () => {
    expect(paths({ branding: { font_family: "Inter, Helvetica Neue, sans-serif" } })).toEqual([])
    expect(paths({ branding: { font_family: "x;} body{display:none" } })).toEqual(["branding.font_family"])
  })

  it("title up to 80 and subtitle up to 200 characters, counted as characters not bytes", () => {
    expect(paths({ copy: { title: "é".repeat(80), subtitle: "🙂".repeat(200) } })).toEqual([])
    expect(paths({ copy: { title: "x".repeat(81), subtitle: "x".repeat(201) } })).toEqual(["copy.subtitle", "copy.title"])
    expect(paths({ copy: { title: "   " } })).toEqual(["copy.title"])
  })

  it("terms and privacy are https URLs, support_email an email", () => {
    expect(paths({ copy: { terms_url: "https://x.example/terms", privacy_url: "https://x.example/privacy", support_email: "help@x.example" } }))
      .toEqual([])
    expect(paths({ copy: { terms_url: "http://x.example/terms", privacy_url: "javascript:alert(1)", support_email: "help" } }))
      .toEqual(["copy.privacy_url", "copy.support_email", "copy.terms_url"])
  })

  it("text contrast of at least 4.5:1 in each palette, reported on the foreground color", () => {
    const result = problems({ branding: { light: { surface: "#ffffff", text: "#777777", primary_text: "#ffffff", primary: "#7a7a7a" }, dark: { muted_text: "#333333" } } })
    expect(Object.keys(result).sort()).toEqual(["branding.dark.muted_text", "branding.light.primary_text", "branding.light.text"])
    expect(result["branding.light.text"]).toBe(
      "has contrast 4.48:1 against background #ffffff; at least 4.5:1 is needed; " +
        "has contrast 4.48:1 against surface #ffffff; at least 4.5:1 is needed"
    )
    expect(paths({ branding: { light: { surface: "#ffffff", text: "#767676" } } })).toEqual([])
    expect(problems({ branding: { light: { text: "#767676" } } })).toEqual({
      "branding.light.text": "has contrast 4.24:1 against surface #f6f7f9; at least 4.5:1 is needed"
    })
  })

  it("contrast is checked on the merged palette, so changing only the background can fail", () => {
    expect(paths({ branding: { light: { background: "#111111" } } })).toEqual(["branding.light.muted_text", "branding.light.text"])
  })

  it("a ratio just under 4.5 is never shown as 4.5", () => {
    expect(problems({ branding: { light: { surface: "#ffffff", text: "#707972" } } })).toEqual({
      "branding.light.text": "has contrast 4.49:1 against background #ffffff; at least 4.5:1 is needed; " +
        "has contrast 4.49:1 against surface #ffffff; at least 4.5:1 is needed"
    })
  })

  it("problems become one 422 validation_failed with details.fields by path", () => {
    const error = toValidationFailed([
      { field: "methods", message: "must enable at least one method" },
      { field: "branding.light.text", message: "a" },
      { field: "branding.light.text", message: "b" }
    ])
    expect(error.status).toBe(422)
    expect(error.details).toEqual({ fields: { methods: "must enable at least one method", "branding.light.text": "a; b" } })
  })
})
