import { describe, it } from "@effect/vitest"
import { Arbitrary, FastCheck, Schema } from "effect"
import { applyPatch, SigninConfig, SigninConfigPatch } from "../src/apps/signinConfig/index.ts"

// fast-check as re-exported by effect (FastCheck), with arbitraries derived from the schemas.
const configs = Arbitrary.make(SigninConfig)
const patches = Arbitrary.make(SigninConfigPatch)
const equivalent = Schema.equivalence(SigninConfig)

describe("signin-config patch properties", () => {
  it("an empty patch never changes the config", () => {
    FastCheck.assert(FastCheck.property(configs, (config) => {
      const result = applyPatch(config, {})
      return !result.changed && equivalent(result.config, config)
    }))
  })

  it("applying a patch twice equals applying it once", () => {
    FastCheck.assert(FastCheck.property(configs, patches, (config, patch) => {
      const once = applyPatch(config, patch).config
      const twice = applyPatch(once, patch)
      return equivalent(once, twice.config) && twice.secrets.client_secret._tag !== "Removed" &&
        twice.secrets.private_key._tag !== "Removed"
    }))
  })

  it("the result always has the config's shape and never carries a secret", () => {
    FastCheck.assert(FastCheck.property(configs, patches, (config, patch) => {
      const result = applyPatch(config, patch).config
      const keys = JSON.stringify(result)
      return Schema.is(SigninConfig)(result) && !keys.includes("\"client_secret\"") && !keys.includes("\"private_key\"") &&
        !keys.includes("expected_version")
    }))
  })

  it("a patch that reports no change leaves the config as it was", () => {
    FastCheck.assert(FastCheck.property(configs, patches, (config, patch) => {
      const result = applyPatch(config, patch)
      return result.changed || equivalent(result.config, config)
    }))
  })
})
