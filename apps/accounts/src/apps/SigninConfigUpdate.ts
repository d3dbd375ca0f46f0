import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { now } from "@platform/service"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { ConfigVersionConflict } from "./errors.ts"
import { AppsRepo } from "./AppsRepo.ts"
import {
  applyPatch,
  decodeStoredSigninConfig,
  type SecretChange,
  type SigninConfigPatch,
  toValidationFailed,
  validateSigninConfig
} from "./signinConfig/index.ts"

const nextSecret = (change: SecretChange, stored: string | undefined, seal: (value: string) => string) =>
  change._tag === "Set" ? seal(change.value) : change._tag === "Removed" ? undefined : stored

/**
 * PATCH /v1/apps/{app_id}/signin-config: the patch applied to the current
 * setup under a row lock; `expected_version` must match (409
 * config_version_conflict); the result validated whole (422 by field); a new
 * version (kept in history) only when something changed. Secrets are sealed
 * at rest and never returned.
 */
export class SigninConfigUpdate extends Effect.Service<SigninConfigUpdate>()("accounts/SigninConfigUpdate", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const secrets = yield* SecretsAtRest
    const apps = yield* AppsRepo

    const update = (appId: string, patch: SigninConfigPatch, changedBy: string | null) =>
      sql.withTransaction(Effect.gen(function*() {
        const found = yield* apps.lockSigninConfig(appId)
        if (Option.isNone(found)) return yield* Effect.dieMessage(`app ${appId} vanished`)
        const locked = found.value
        if (patch.expected_version !== undefined && patch.expected_version !== locked.config_version) {
          return yield* new ConfigVersionConflict({
            message: `The sign-in setup is at version ${locked.config_version}, not ${patch.expected_version}.`,
            hint: "Read the app again and apply your change to the current version.",
            details: { config_version: locked.config_version }
          })
        }
        const current = yield* Effect.orDie(decodeStoredSigninConfig(locked.signin_config))
        const stored = {
          client_secret: locked.idp_secrets.client_secret === undefined ? null : yield* secrets.open("idp_client_secret", locked.idp_secrets.client_secret),
          private_key: locked.idp_secrets.private_key === undefined ? null : yield* secrets.open("idp_private_key", locked.idp_secrets.private_key)
        }
        const result = applyPatch(current, patch, stored)
        yield* Either.mapLeft(validateSigninConfig(result.config), toValidationFailed)
        if (!result.changed) return Option.none<number>()
        const version = locked.config_version + 1
        const at = yield* now
        const idpSecrets = {
          client_secret: nextSecret(result.secrets.client_secret, locked.idp_secrets.client_secret, (value) => secrets.seal("idp_client_secret", value)),
          private_key: nextSecret(result.secrets.private_key, locked.idp_secrets.private_key, (value) => secrets.seal("idp_private_key", value))
        }
        yield* apps.saveSigninConfig(appId, { version, config: result.config, idpSecrets, changedBy, at })
        return Option.some(version)
      })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("SigninConfigUpdate.update"))

    return { update } as const
  }),
  dependencies: [SecretsAtRest.Default, AppsRepo.Default]
}) {}
