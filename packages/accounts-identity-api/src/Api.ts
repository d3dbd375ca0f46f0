import { HttpApi, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, PageQueryFields, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { AccountNotFound, EmailInUse, IdReserved, IdTaken, InvalidId, PhoneInUse } from "./errors.ts"
import {
  CarbonIdentity,
  Identity,
  IdentityChanges,
  NewCarbonIdentity,
  NewSiliconIdentity,
  PathSegment,
  SiliconIdentity
} from "./Identity.ts"
import { InternalAuth } from "./InternalAuth.ts"

const INTERNAL = "Internal (bearer ACCOUNTS_INTERNAL_TOKEN), for IAM."
const ANY_STATUS = "Answered whatever the account's status: the caller refuses one that is not active."

const notFound = errorResponse(AccountNotFound)

const IdempotencyKeyHeader = Schema.Struct({
  "idempotency-key": Schema.optional(
    Schema.String.annotations({ description: "A key of the caller's choosing: a retry with it replays the first answer" })
  )
})

export class InternalIdentitiesApi extends HttpApiGroup.make("internalIdentities")
  .add(
    HttpApiEndpoint.get("carbonByEmail", "/v1/internal/identities/carbons/by-email/:email")
      .setPath(Schema.Struct({ email: PathSegment("The email, percent-encoded; any case") }))
      .addSuccess(CarbonIdentity)
      .addError(notFound)
      .annotate(
        OpenApi.Description,
        `${INTERNAL} The Carbon on which this email is verified, with all its verified emails and phones; 404 ` +
          `account_not_found when no account has it verified (a malformed address included). ${ANY_STATUS}`
      )
  )
  .add(
    HttpApiEndpoint.get("carbonByPhone", "/v1/internal/identities/carbons/by-phone/:phone")
      .setPath(Schema.Struct({ phone: PathSegment("The phone in E.164, percent-encoded (%2B14155550100)") }))
      .addSuccess(CarbonIdentity)
      .addError(notFound)
      .annotate(
        OpenApi.Description,
        `${INTERNAL} The Carbon on which this phone number is verified, with all its verified emails and phones; 404 ` +
          `account_not_found when no account has it verified (a number that is not E.164 included). ${ANY_STATUS}`
      )
  )
  .add(
    HttpApiEndpoint.get("carbonById", "/v1/internal/identities/carbons/by-id/:id")
      .setPath(Schema.Struct({ id: PathSegment("c:<handle>, any case") }))
      .addSuccess(CarbonIdentity)
      .addError(notFound)
      .addError(errorResponse(InvalidId))
      .annotate(
        OpenApi.Description,
        `${INTERNAL} The Carbon holding this id now; 404 account_not_found when none does (an si: id included); ` +
          `a malformed id or a reserved word is 422 invalid_id. ${ANY_STATUS}`
      )
  )
  .add(
    HttpApiEndpoint.get("siliconById", "/v1/internal/identities/silicons/by-id/:id")
      .setPath(Schema.Struct({ id: PathSegment("si:<handle>, any case") }))
      .addSuccess(SiliconIdentity)
      .addError(notFound)
      .addError(errorResponse(InvalidId))
      .annotate(
        OpenApi.Description,
        `${INTERNAL} The Silicon holding this id now; 404 account_not_found when none does (a c: id included); ` +
          `a malformed id is 422 invalid_id. ${ANY_STATUS}`
      )
  )
  .add(
    HttpApiEndpoint.get("changes", "/v1/internal/identities/changes")
      .setUrlParams(Schema.Struct({
        after: Schema.optional(
          Schema.String.pipe(Schema.maxLength(100)).annotations({
            description: "The cursor of the last change read, unchanged; absent: from the first change kept"
          })
        ),
        limit: PageQueryFields.limit
      }))
      .addSuccess(IdentityChanges)
      .addError(errorResponse(InvalidCursor))
      .annotate(
        OpenApi.Description,
        `${INTERNAL} The accounts whose id, display name or status changed (account.id_changed, account.updated of ` +
          "display_name, account.deleted, a Silicon activated by its first custodian), in commit order after the " +
          "cursor, each as it is now. Only changes of transactions older than every running one are listed, so a " +
          "change committed late is never skipped behind a cursor already passed. An account changed twice appears twice. " +
          "A cursor this feed did not give is 400 invalid_cursor."
      )
  )
  .add(
    HttpApiEndpoint.get("byUuid", "/v1/internal/identities/:uuid")
      .setPath(Schema.Struct({ uuid: PathSegment("The account's uuid") }))
      .addSuccess(Identity)
      .addError(notFound)
      .annotate(
        OpenApi.Description,
        `${INTERNAL} The Carbon or Silicon with this uuid, deleted ones included (with status deleted); 404 ` +
          "account_not_found for an unknown uuid."
      )
  )
  .add(
    HttpApiEndpoint.post("createCarbon", "/v1/internal/identities/carbons")
      .setPayload(NewCarbonIdentity)
      .setHeaders(IdempotencyKeyHeader)
      .addSuccess(CarbonIdentity, { status: 201 })
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .addError(errorResponse(EmailInUse))
      .addError(errorResponse(PhoneInUse))
      .annotate(
        OpenApi.Description,
        `${INTERNAL} A new active Carbon for a person whose email or phone the caller verified (exactly one of them), ` +
          "the address recorded as verified and primary. The rules of the hosted sign-up apply: an id taken is 409 " +
          "id_taken with suggestions, one reserved for its previous owner 409 id_reserved, a malformed one 422 " +
          "invalid_id; no id: one is made from the display name. An address verified on another account is 409 " +
          "email_in_use or phone_in_use. An address an app imported and nobody claimed yet finishes that import: the " +
          "imported account (its uuid) becomes this Carbon. Unknown fields 422. No event is recorded (spec 1 has no " +
          "account creation event). With Idempotency-Key, a retry answers what the first request did."
      )
  )
  .add(
    HttpApiEndpoint.post("createSilicon", "/v1/internal/identities/silicons")
      .setPayload(NewSiliconIdentity)
      .setHeaders(IdempotencyKeyHeader)
      .addSuccess(SiliconIdentity, { status: 201 })
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(InvalidId))
      .addError(errorResponse(IdTaken))
      .addError(errorResponse(IdReserved))
      .addError(notFound)
      .annotate(
        OpenApi.Description,
        `${INTERNAL} A new active Silicon in the custody of the Carbon named by custodian_uuid, as a custodian's ` +
          "POST /v1/me/silicons makes one: the same id and field rules (an id taken 409 id_taken with suggestions, " +
          "reserved 409 id_reserved, malformed 422 invalid_id; bad fields 422 validation_failed) and an STK " +
          "generated and kept as a hash, never shown (the custodian rotates it in accounts to have one). A custodian " +
          "that is not an active Carbon is 404 account_not_found. Unknown fields 422. With Idempotency-Key, a retry " +
          "answers what the first request did."
      )
  )
  .middleware(InternalAuth)
  .annotate(OpenApi.Title, "Internal")
{}

/** The whole contract IAM calls: `HttpApiClient.make(AccountsIdentityApi, …)` (see AccountsDirectory). */
export class AccountsIdentityApi extends HttpApi.make("accountsIdentity").add(InternalIdentitiesApi) {}
