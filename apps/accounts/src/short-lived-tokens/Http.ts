import { carriesNewSecret } from "@platform/idempotency"
import { compiledGroup, now } from "@platform/service"
import { Effect, Layer, Option } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import { AccountsApi } from "../api.ts"
import { AccountAuthLive } from "../auth/AccountAuth.ts"
import { requireCarbon } from "../auth/requireCarbon.ts"
import { DEVELOPER_APP_ID, FIRST_PARTY_APP_ID } from "../apps/AppId.ts"
import { AppsRepo } from "../apps/AppsRepo.ts"
import { AppDisabled, UnknownApp } from "../apps/errors.ts"
import { SiliconNotFound } from "../silicons/errors.ts"
import { requireSilicon } from "../silicons/requireSilicon.ts"
import { SiliconsRepo } from "../silicons/SiliconsRepo.ts"
import { AppNotAllowed } from "./errors.ts"
import { type AllowList, ShortLivedTokensRepo } from "./ShortLivedTokensRepo.ts"

/** What an app's sign-in from a short-lived token is granted: a Silicon has no email or phone to share. */
export const SHORT_LIVED_TOKEN_SCOPE = "openid profile"

const allowedApps = (list: Option.Option<AllowList>) => ({
  allowed_apps: Option.match(list, { onNone: () => null, onSome: (row) => row.app_ids }),
  updated_at: Option.match(list, { onNone: () => null, onSome: (row) => row.updated_at.toISOString() })
})

export const ShortLivedTokensLive = compiledGroup(AccountsApi, "shortLivedTokens", (handlers) =>
  Effect.gen(function*() {
    const tokens = yield* ShortLivedTokensRepo
    const apps = yield* AppsRepo
    const silicons = yield* SiliconsRepo

    const inCustody = (uuid: string) =>
      Effect.gen(function*() {
        const carbon = yield* requireCarbon
        const silicon = yield* silicons.findInCustody(carbon.uuid, uuid)
        if (Option.isNone(silicon)) {
          return yield* new SiliconNotFound({ message: "No Silicon with this uuid is in your custody." })
        }
        return silicon.value.uuid
      })

    const receivingApp = (appId: string) =>
      Effect.gen(function*() {
        const app = yield* apps.credentialsOf(appId)
        if (Option.isNone(app) || appId === FIRST_PARTY_APP_ID || appId === DEVELOPER_APP_ID) {
          return yield* new UnknownApp({ message: `No app has the id ${JSON.stringify(appId)}.` })
        }
        if (app.value.status !== "active") return yield* new AppDisabled({ message: "This app is disabled." })
      })

    return handlers
      .handle("mint", ({ payload }) =>
        Effect.gen(function*() {
          const silicon = yield* requireSilicon
          yield* receivingApp(payload.app_id)
          const list = yield* tokens.allowList(silicon.uuid)
          if (Option.isSome(list) && !list.value.app_ids.includes(payload.app_id)) {
            return yield* new AppNotAllowed({ message: "Your custodian's allow-list does not name this app." })
          }
          const minted = yield* tokens.mint({
            siliconUuid: silicon.uuid,
            appId: payload.app_id,
            scope: SHORT_LIVED_TOKEN_SCOPE,
            now: yield* now
          })
          yield* carriesNewSecret
          return {
            slt: minted.token,
            app_id: payload.app_id,
            scope: SHORT_LIVED_TOKEN_SCOPE,
            expires_at: minted.expiresAt.toISOString()
          }
        }))
      .handle("allowList", ({ path }) =>
        Effect.flatMap(inCustody(path.uuid), (uuid) => Effect.map(tokens.allowList(uuid), allowedApps)))
      .handle("setAllowList", ({ path, payload }) =>
        Effect.gen(function*() {
          const uuid = yield* inCustody(path.uuid)
          const appIds = payload.allowed_apps === null ? null : [...new Set(payload.allowed_apps)]
          yield* tokens.setAllowList(uuid, appIds, yield* now)
          return allowedApps(yield* tokens.allowList(uuid))
        }))
  })).pipe(Layer.provide([
    ShortLivedTokensRepo.Default,
    AppsRepo.Default,
    SiliconsRepo.Default,
    AccountsRepo.Default,
    AccountAuthLive
  ]))
