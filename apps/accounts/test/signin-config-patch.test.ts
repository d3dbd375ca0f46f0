import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import {
  applyPatch,
  decodeStoredSigninConfig,
  defaultSigninConfig,
  SigninConfigPatch
} from "../src/apps/signinConfig/index.ts"

const decode = (body: unknown) => Schema.decodeUnknownSync(SigninConfigPatch)(body)
const apply = (body: unknown, current = defaultSigninConfig) => applyPatch(current, decode(body))
const problemsOf = (body: unknown) =>
  Either.match(Schema.decodeUnknownEither(SigninConfigPatch)(body), {
    onLeft: (error) => ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => issue.path.join(".")),
    onRight: () => []
  })

describe("signin-config patch semantics", () => {
  it("objects merge: one palette color changes, the rest stays", () => {
    const { config, changed } = apply({ branding: { light: { primary: "#0A3D91" } } })
    expect(changed).toBe(true)
    expect(config.branding.light).toEqual({ ...defaultSigninConfig.branding.light, primary: "#0a3d91" })
    expect(config.branding.dark).toEqual(defaultSigninConfig.branding.dark)
    expect(config.methods).toEqual(defaultSigninConfig.methods)
  })

  it("arrays and plain values replace", () => {
    const first = apply({ redirect_uris: ["https://a.example/cb", "https://b.example/cb"], allow_signup: false }).config
    const { config } = apply({ redirect_uris: ["https://c.example/cb"] }, first)
    expect(config.redirect_uris).toEqual(["https://c.example/cb"])
    expect(config.allow_signup).toBe(false)
  })

  it("null resets a field, a nested object or a whole object to its default", () => {
    const custom = apply({
      copy: { title: "Welcome", support_email: "help@example.com" },
      branding: { radius: 20, light: { text: "#000000" } },
      method_order: ["email", "phone", "idp_a", "idp_b"]
    }).config
    expect(apply({ copy: { title: null } }, custom).config.copy).toEqual({ ...defaultSigninConfig.copy, support_email: "help@example.com" })
    expect(apply({ branding: { light: null } }, custom).config.branding).toEqual({ ...defaultSigninConfig.branding, radius: 20 })
    expect(apply({ branding: null }, custom).config.branding).toEqual(defaultSigninConfig.branding)
    expect(apply({ method_order: null }, custom).config.method_order).toEqual(defaultSigninConfig.method_order)
  })

  it("a patch with no change, or an empty one, makes no new version", () => {
    const custom = apply({ methods: { phone: true }, copy: { title: "Hi" } }).config
    expect(apply({}, custom).changed).toBe(false)
    expect(apply({ expected_version: 3 }, custom).changed).toBe(false)
    expect(apply({ methods: { phone: true }, copy: { title: "Hi" } }, custom).changed).toBe(false)
    expect(apply({ branding: { light: { primary: defaultSigninConfig.branding.light.primary.toUpperCase() } } }, custom).changed)
      .toBe(false)
    expect(apply({ copy: { subtitle: null } }, custom).changed).toBe(false)
    expect(apply({ copy: { title: "Hello" } }, custom).changed).toBe(true)
  })

  it("the read-only masks and expected_version never reach the config", () => {
    const { config, changed } = apply({ idp_a: { client_secret_set: true }, idp_b: { private_key_set: true }, expected_version: 1 })
    expect(changed).toBe(false)
    expect(config).toEqual(defaultSigninConfig)
  })

  it("unknown fields are refused at every level, by path", () => {
    expect(problemsOf({ colour: "red" })).toContain("colour")
    expect(problemsOf({ branding: { light: { accent: "#ffffff" } } })).toContain("branding.light.accent")
    expect(problemsOf({ idp_b: { private_key_pem: "x" } })).toContain("idp_b.private_key_pem")
  })

  it("shapes are checked by path: colors, enums, detail names, expected_version", () => {
    expect(problemsOf({ branding: { dark: { text: "white" } } })[0]).toBe("branding.dark.text")
    expect(problemsOf({ idp_a: { prompt: "login" } })[0]).toBe("idp_a.prompt")
    expect(problemsOf({ required_fields: ["email", "shoe_size"] })[0]).toBe("required_fields.1")
    expect(problemsOf({ expected_version: 1.5 })[0]).toBe("expected_version")
    expect(problemsOf({ idp_a: { mode: "byo", prompt: "consent select_account" } })).toEqual([])
  })

  it("a stored config missing newer fields reads with their defaults", () => {
    const { copy: _copy, ...older } = apply({ copy: { title: "Hi" }, allow_signup: false }).config
    expect(decodeStoredSigninConfig(older)).toEqual(Either.right({ ...defaultSigninConfig, allow_signup: false }))
  })
})
