import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, KeepsAnswers, Page, PageQueryFields, ValidationFailed } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { AppOrAuthor } from "../app-management/AppOrAuthor.ts"
import { NotAppOwner } from "../apps/errors.ts"
import {
  AccountVerificationRequestState,
  FiledAccountVerificationRequest,
  NewAccountVerificationRequest,
  PendingAccountVerificationRequest
} from "./AccountVerificationRequest.ts"
import { AppCaller } from "./AppCaller.ts"
import { PROOF_VIEW_CACHE_CAPACITY, PROOF_VIEW_CHANNEL } from "./proofViewChannel.ts"
import {
  AppVerificationSingleApp,
  InvalidProofId,
  InvalidProofRefreshToken,
  InvalidReceivingApp,
  InvalidSubjectToken,
  NotIssuingApp,
  ProofAccountNotActive,
  ProofExpired,
  ProofMembershipInactive,
  ProofNotFound,
  ProofRefreshTokenReused,
  ProofRevoked,
  ReceivingAppDisabled,
  SubjectTokenWrongApp,
  UnknownReceivingApp
} from "./errors.ts"
import {
  AppVerificationRequest,
  IssuedProof,
  ProofKind,
  ProofListItem,
  ProofRefreshRequest,
  ProofRevokeRequest,
  ProofStatus,
  ProofVerification,
  ProofVerifyRequest,
  UserVerificationRequest
} from "./Proof.ts"

export const ProofPage = Page(ProofListItem, "ProofPage")
const AppPath = Schema.Struct({ app_id: Schema.String.pipe(Schema.maxLength(64)) })
const ProofIdPath = Schema.String.pipe(Schema.maxLength(100)).annotations({ description: "The proof's uuid" })

export class ProofsApi extends HttpApiGroup.make("proofs")
  .add(
    HttpApiEndpoint.post("userVerification", "/v1/proofs/user-verification")
        .setPayload(UserVerificationRequest)
        .addSuccess(IssuedProof, { status: 201 })
        .addError(errorResponse(InvalidSubjectToken))
        .addError(errorResponse(SubjectTokenWrongApp))
        .addError(errorResponse(ProofAccountNotActive))
        .addError(errorResponse(ProofMembershipInactive))
        .addError(errorResponse(UnknownReceivingApp))
        .addError(errorResponse(InvalidReceivingApp))
        .addError(errorResponse(ReceivingAppDisabled))
      .annotate(
      OpenApi.Description,
      "A User verification proof: states to one receiving app which account the calling app acts for. subject_token is an access token the " +
        "calling app itself received for the account (400 invalid_subject_token with details.reason not_an_access_token, invalid, expired or revoked). " +
        "Idempotent with Idempotency-Key (10 minutes). The proof never outlives the sign-in behind the token."
    )
  )
  .add(
    HttpApiEndpoint.post("appVerification", "/v1/proofs/app-verification")
      .setPayload(AppVerificationRequest)
      .addSuccess(IssuedProof, { status: 201 })
      .addError(errorResponse(AppVerificationSingleApp))
      .addError(errorResponse(UnknownReceivingApp))
      .addError(errorResponse(InvalidReceivingApp))
      .addError(errorResponse(ReceivingAppDisabled))
      .annotate(
        OpenApi.Description,
        "An App verification proof: states to one receiving app which app is calling. One per receiving app: a new one revokes the previous " +
          "(revoke_reason revoked_by_app). audiences is refused (422 app_verification_single_app). Idempotent with Idempotency-Key."
      )
  )
  .add(
    HttpApiEndpoint.post("refresh", "/v1/proofs/refresh")
      .setPayload(ProofRefreshRequest)
      .addSuccess(IssuedProof)
      .addError(errorResponse(InvalidProofRefreshToken))
      .addError(errorResponse(ProofRefreshTokenReused))
      .addError(errorResponse(NotIssuingApp))
      .addError(errorResponse(ProofExpired))
      .addError(errorResponse(ProofRevoked))
      .annotate(
        OpenApi.Description,
        "The issuing app refreshes its proof: the same proof_id, a new proof token, a rotated refresh token. A used refresh token presented again " +
          "revokes the proof (400 proof_refresh_token_reused). With Idempotency-Key a retry answers the same tokens."
      )
  )
  .add(
    HttpApiEndpoint.post("verify", "/v1/proofs/verify")
      .setPayload(ProofVerifyRequest)
      .addSuccess(ProofVerification)
      // Every receiving app asks again and again: each process replays its answers, exact under the proof view's changes.
      .annotate(KeepsAnswers, { channel: PROOF_VIEW_CHANNEL, capacity: PROOF_VIEW_CACHE_CAPACITY })
      .annotate(
        OpenApi.Description,
        "The receiving app checks a proof token. Always 200: valid true only if the token is known and unexpired, the proof not revoked, the caller " +
          "its receiving app, the issuing app active and, for User verification, the account, its membership and the sign-in live; otherwise exactly " +
          "{valid:false, expires_at:null}. A malformed input (no proof_token string starting sap_) adds the header x-accounts-hint."
      )
  )
  .add(
    HttpApiEndpoint.post("revoke", "/v1/proofs/revoke")
      .setPayload(ProofRevokeRequest)
      .addSuccess(Schema.Void)
      .addError(errorResponse(ValidationFailed))
      .addError(errorResponse(ProofNotFound))
      .addError(errorResponse(InvalidProofId))
      .addError(errorResponse(NotIssuingApp))
      .annotate(
        OpenApi.Description,
        "The issuing app revokes a proof named by exactly one of proof_id, proof_token, proof_refresh_token (revoke_reason revoked_by_app). Revoking twice does nothing."
      )
  )
  .middleware(AppCaller)
  .annotate(OpenApi.Title, "Proofs")
{}

export class AppProofsApi extends HttpApiGroup.make("appProofs")
  .add(
    HttpApiEndpoint.get("list", "/v1/apps/:app_id/proofs")
      .setPath(AppPath)
      .setUrlParams(Schema.Struct({ kind: Schema.optional(ProofKind), status: Schema.optional(ProofStatus), ...PageQueryFields }))
      .addSuccess(ProofPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The proofs the app issued, newest first; filters kind and status (active, revoked, expired).")
  )
  .add(
    HttpApiEndpoint.del("revoke", "/v1/apps/:app_id/proofs/:proof_id")
      .setPath(Schema.Struct({ ...AppPath.fields, proof_id: ProofIdPath }))
      .addSuccess(Schema.Void)
      .addError(errorResponse(ProofNotFound))
      .addError(errorResponse(InvalidProofId))
      .annotate(
        OpenApi.Description,
        "Revokes one of the app's proofs: revoke_reason revoked_by_app with the app's credentials, revoked_by_owner for an author. Twice does nothing."
      )
  )
  .add(
    HttpApiEndpoint.post("appVerification", "/v1/apps/:app_id/proofs/app-verification")
      .setPath(AppPath)
      .setPayload(AppVerificationRequest)
      .addSuccess(IssuedProof, { status: 201 })
      .addError(errorResponse(AppVerificationSingleApp))
      .addError(errorResponse(UnknownReceivingApp))
      .addError(errorResponse(InvalidReceivingApp))
      .addError(errorResponse(ReceivingAppDisabled))
      .annotate(OpenApi.Description, "An author issues an App verification proof for the app without its secret; as POST /v1/proofs/app-verification.")
  )
  .middleware(AppOrAuthor)
  .annotate(OpenApi.Title, "Proofs")
{}

export class MyProofsApi extends HttpApiGroup.make("myProofs")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/proofs")
      .setUrlParams(Schema.Struct({ status: Schema.optional(ProofStatus), ...PageQueryFields }))
      .addSuccess(ProofPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "The User verification proofs apps issued for the signed-in account, newest first.")
  )
  .add(
    HttpApiEndpoint.del("revoke", "/v1/me/proofs/:proof_id")
      .setPath(Schema.Struct({ proof_id: ProofIdPath }))
      .addSuccess(Schema.Void)
      .addError(errorResponse(ProofNotFound))
      .addError(errorResponse(InvalidProofId))
      .annotate(OpenApi.Description, "The account revokes a proof about itself (revoke_reason revoked_by_account). Twice does nothing.")
  )
  .add(
    HttpApiEndpoint.get("appVerifications", "/v1/me/app-verifications")
      .setUrlParams(Schema.Struct({ status: Schema.optional(ProofStatus), ...PageQueryFields }))
      .addSuccess(ProofPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(OpenApi.Description, "App verification proofs issued by the apps the signed-in account authors, newest first.")
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Proofs")
{}

export class AccountVerificationApi extends HttpApiGroup.make("accountVerification")
  .add(
    HttpApiEndpoint.get("get", "/v1/apps/:app_id/account-verification-request")
      .setPath(AppPath)
      .addSuccess(AccountVerificationRequestState)
      .addError(errorResponse(NotAppOwner))
      .annotate(
        OpenApi.Description,
        "The signed-in author's newest account verification request (or null), filed from any of its apps. Account auth only, not Basic."
      )
  )
  .add(
    HttpApiEndpoint.post("file", "/v1/apps/:app_id/account-verification-request")
      .setPath(AppPath)
      .setPayload(NewAccountVerificationRequest)
      .addSuccess(FiledAccountVerificationRequest, { status: 201 })
      .addSuccess(PendingAccountVerificationRequest)
      .addError(errorResponse(NotAppOwner))
      .annotate(
        OpenApi.Description,
        "Asks the operators to verify the signed-in author's account, with this app as context. One pending request per account: while one is, " +
          "200 with created false and that request. Operators approve or reject it; there is no public route for that."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Apps")
{}
