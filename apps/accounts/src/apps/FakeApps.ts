import { SqlClient } from "@effect/sql"
import { randomToken, sha256Hex } from "@platform/crypto"
import { Effect, Either, Option } from "effect"
import { parseAccountId } from "../accounts/AccountId.ts"
import { isCarbonRow } from "../accounts/AccountRow.ts"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { FieldCheck } from "../accounts/FieldCheck.ts"
import { now } from "@platform/service"
import { validateNewAppId } from "./AppId.ts"
import { APP_SECRET_PREFIX } from "./AppCredentials.ts"
import type { IdTokenSigningAlg } from "./AppRecord.ts"
import { AppsRepo } from "./AppsRepo.ts"
import { AppIdTaken } from "./errors.ts"
import { defaultSigninConfig, DetailName, toValidationFailed, validateSigninConfig } from "./signinConfig/index.ts"

export interface NewFakeApp {
  readonly appId: string
  readonly name: string
  readonly redirectUris: ReadonlyArray<string>
  /** `c:<handle>` of the owning Carbon; none for an app nobody manages but the operator. */
  readonly owner: Option.Option<string>
  /** Details the app asks for, all required: email, phone, dob, timezone. */
  readonly scopeFields: ReadonlyArray<string>
  /** How its id tokens are signed (default EdDSA). */
  readonly idTokenSignedResponseAlg?: IdTokenSigningAlg
}

const isDetailName = (field: string): field is DetailName => (DetailName.literals as ReadonlyArray<string>).includes(field)

/**
 * The operator command's app (CONTRACT.md, `apps create`): source `fake`,
 * active, the default sign-in setup with its redirect URIs and required
 * fields, and a new secret returned once (stored as its SHA-256 digest).
 */
export const createFakeApp = (input: NewFakeApp) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const accounts = yield* AccountsRepo
    const apps = yield* AppsRepo
    const fields = new FieldCheck()
    const appId = fields.check("app_id", input.appId, validateNewAppId)
    const name = fields.check("name", input.name.trim(), (value) =>
      value.length >= 1 && value.length <= 200 ? Either.right(value) : Either.left("must be 1 to 200 characters"))
    let ownerUuid: string | null = null
    if (Option.isSome(input.owner)) {
      const id = Either.getOrUndefined(parseAccountId(input.owner.value))
      const owner = id === undefined ? Option.none() : yield* accounts.findById(id)
      if (Option.isNone(owner) || !isCarbonRow(owner.value) || owner.value.status !== "active") {
        fields.check("owner", input.owner.value, () => Either.left("must be the c: id of an active Carbon"))
      } else ownerUuid = owner.value.uuid
    }
    const unknownFields = input.scopeFields.filter((field) => !isDetailName(field))
    if (unknownFields.length > 0) {
      fields.check("scope_fields", unknownFields.join(","), () => Either.left("must be among email, phone, dob, timezone"))
    }
    yield* fields.result
    const config = {
      ...defaultSigninConfig,
      redirect_uris: input.redirectUris,
      required_fields: input.scopeFields.filter(isDetailName)
    }
    yield* Either.mapLeft(validateSigninConfig(config), toValidationFailed)
    const secret = randomToken(APP_SECRET_PREFIX)
    const at = yield* now
    const created = yield* sql.withTransaction(apps.insert({
      appId: appId!,
      name: name!,
      description: null,
      homepageUrl: null,
      logoUrl: null,
      logoDarkUrl: null,
      ownerUuid,
      coauthorUuids: [],
      status: "active",
      source: "fake",
      secretHash: sha256Hex(secret),
      idTokenSignedResponseAlg: input.idTokenSignedResponseAlg ?? null
    }, config, at)).pipe(Effect.catchTag("SqlError", Effect.die))
    if (!created) return yield* new AppIdTaken({ message: `An app with the id ${appId} exists already.` })
    const app = yield* apps.findWithStats(appId!)
    return { app: Option.getOrThrow(app), secret }
  })
