import { Schema } from "effect"
import { Method } from "./fields.ts"
import { Branding, Copy, type SigninConfig } from "./SigninConfig.ts"

/** The signin_config part of GET /v1/apps/{app_id}/public (and of FlowView.app): nothing about idps or secrets. */
export const PublicSigninView = Schema.Struct({
  methods: Schema.Array(Method).annotations({ description: "enabled methods, in button order" }),
  branding: Branding,
  copy: Copy,
  allowed_origins: Schema.Array(Schema.String)
})
export type PublicSigninView = typeof PublicSigninView.Type

/** The enabled methods in method_order. */
export const enabledMethods = (config: SigninConfig): ReadonlyArray<Method> =>
  config.method_order.filter((method) => config.methods[method])

export const publicSigninView = (config: SigninConfig): PublicSigninView => ({
  methods: enabledMethods(config),
  branding: config.branding,
  copy: config.copy,
  allowed_origins: config.allowed_origins
})
