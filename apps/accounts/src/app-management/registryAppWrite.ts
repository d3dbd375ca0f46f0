
import { Effect, Either } from "effect"
import { AccountsRepo } from "../accounts/AccountsRepo.ts"
import type { RegistryApp } from "@platform/accounts-identity-api"
import { isValidAppId } from "../apps/AppId.ts"
import type { AppWrite } from "../apps/AppsRepo.ts"
import { validateLogoUrl } from "../apps/signinConfig/index.ts"
import { FieldCheck } from "../accounts/FieldCheck.ts"
import { validateHttpsUrl } from "../accounts/httpsUrl.ts"

/** The registry's app body, checked field by field (422 validation_failed names each problem). */
export const registryAppWrite = (appId: string, body: typeof RegistryApp.Type) =>
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const fields = new FieldCheck()
    fields.check("app_id", appId, (value) => isValidAppId(value) ? Either.right(value) : Either.left("is not a valid app id"))
    const name = fields.check("name", body.name.trim(), (value) =>
      value.length >= 1 && value.length <= 200 ? Either.right(value) : Either.left("must be 1 to 200 characters"))
    const homepageUrl = fields.check("homepage_url", body.homepage_url ?? undefined, validateHttpsUrl)
    const logoUrl = fields.check("logo_url", body.logo_url ?? undefined, validateLogoUrl)
    const logoDarkUrl = fields.check("logo_dark_url", body.logo_dark_url ?? undefined, validateLogoUrl)
    const authors = [body.owner_uuid, ...(body.coauthor_uuids ?? [])]
    const activeCarbons = yield* accounts.activeCarbonUuids(authors)
    for (const [index, uuid] of authors.entries()) {
      const field = index === 0 ? "owner_uuid" : `coauthor_uuids.${index - 1}`
      if (!activeCarbons.has(uuid)) fields.check(field, uuid, () => Either.left("is not an active Carbon's uuid"))
    }
    yield* fields.result
    const write: AppWrite = {
      appId,
      name: name!,
      description: body.description?.trim() || null,
      homepageUrl: homepageUrl ?? null,
      logoUrl: logoUrl ?? null,
      logoDarkUrl: logoDarkUrl ?? null,
      ownerUuid: body.owner_uuid,
      coauthorUuids: body.coauthor_uuids ?? [],
      status: body.status,
      source: "registry_app",
      secretHash: body.app_secret_sha256 ?? null,
      idTokenSignedResponseAlg: body.id_token_signed_response_alg ?? null
    }
    return write
  })

