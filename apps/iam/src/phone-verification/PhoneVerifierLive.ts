import { Effect, Layer, Option } from "effect"
import { IamConfig } from "../config.ts"
import { DevelopmentPhoneVerifier } from "./DevelopmentPhoneVerifier.ts"
import { RestPhoneVerifier } from "./RestPhoneVerifier.ts"

/** The configured provider (IAM_PHONE_VERIFY_*), else development's own (the settings refuse that in production). */
export const PhoneVerifierLive = Layer.unwrapEffect(
  Effect.map(IamConfig, (config) =>
    Option.match(config.phoneVerification, {
      onNone: () => DevelopmentPhoneVerifier,
      onSome: RestPhoneVerifier
    }))
)
