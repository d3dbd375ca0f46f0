import { SqlClient } from "@effect/sql"
import { Effect, Either, Option, Schema } from "effect"
import { now } from "@platform/service"
import { SecretsAtRest } from "../SecretsAtRest.ts"
import { ConfigVersionConflict } from "./errors.ts"
import { rowsDecoder } from "@platform/database"
import {
  applyPatch,
  decodeStoredSigninConfig,
  type SecretChange,
  type SigninConfigPatch,
  toValidationFailed,
  validateSigninConfig
} from "./signinConfig/index.ts"

const Locked = Schema.Struct({
  signin_config: Schema.Unknown,
  config_version: Schema.Number,
  idp_secrets: Schema.Struct({ client_secret: Schema.optional(Schema.String), private_key: Schema.optional(Schema.String) })
})

const nextSecret = (change: SecretChange, stored: string | undefined, seal: (value: string) => string) =>
  change._tag === "Set" ? seal(change.value) : change._tag === "Removed" ? undefined : stored

/**
 * PATCH /v1/apps/{app_id}/signin-config: the patch applied to the current
 * setup under a row lock; `expected_version` must match (409
 * config_version_conflict); the result validated whole (422 by field); a new
 * version (kept in history) only when something changed. Secrets are sealed
 * at rest and never returned.
 */
const decodeLocked = rowsDecoder(Locked)

export class SigninConfigUpdate extends Effect.Service<SigninConfigUpdate>()("accounts/SigninConfigUpdate", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const secrets = yield* SecretsAtRest

    const update = (appId: string, patch: SigninConfigPatch, changedBy: string | null) =>
      sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql`
          SELECT signin_config, config_version, idp_secrets FROM apps WHERE app_id = ${appId} FOR UPDATE
        `.pipe(Effect.orDie, Effect.flatMap(decodeLocked))
        const locked = rows[0]
        if (locked === undefined) return yield* Effect.dieMessage(`app ${appId} vanished`)
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
        const config = JSON.stringify(result.config)
        yield* sql`
          UPDATE apps SET signin_config = ${config}::jsonb, config_version = ${version},
            idp_secrets = ${JSON.stringify(idpSecrets)}::jsonb, updated_at = ${at}
          WHERE app_id = ${appId}
        `
        yield* sql`
          INSERT INTO app_config_versions (app_id, version, signin_config, changed_by, changed_at)
          VALUES (${appId}, ${version}, ${config}::jsonb, ${changedBy}, ${at})
        `
        return Option.some(version)
      })).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("SigninConfigUpdate.update"))

    return { update } as const
  }),
  dependencies: [SecretsAtRest.Default]
}) {}
