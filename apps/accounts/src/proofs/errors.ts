import { ApiError } from "@platform/http"
import { Schema } from "effect"

/** Proof errors of spec 1 (Proofs, App management). */

export class InvalidSubjectToken extends ApiError<InvalidSubjectToken>()("InvalidSubjectToken", {
  code: "invalid_subject_token",
  status: 400,
  details: Schema.Struct({ reason: Schema.Literal("not_an_access_token", "invalid", "expired", "revoked") })
}) {}

export class SubjectTokenWrongApp extends ApiError<SubjectTokenWrongApp>()("SubjectTokenWrongApp", {
  code: "subject_token_wrong_app",
  status: 403
}) {}

export class ProofAccountNotActive extends ApiError<ProofAccountNotActive>()("ProofAccountNotActive", {
  code: "account_not_active",
  status: 403
}) {}

/** 403 for proofs (userinfo answers the same code with 401). */
export class ProofMembershipInactive extends ApiError<ProofMembershipInactive>()("ProofMembershipInactive", {
  code: "membership_inactive",
  status: 403
}) {}

export class UnknownReceivingApp extends ApiError<UnknownReceivingApp>()("UnknownReceivingApp", {
  code: "unknown_receiving_app",
  status: 400
}) {}

/** The issuing app itself, or a first-party client. */
export class InvalidReceivingApp extends ApiError<InvalidReceivingApp>()("InvalidReceivingApp", {
  code: "invalid_receiving_app",
  status: 400
}) {}

export class ReceivingAppDisabled extends ApiError<ReceivingAppDisabled>()("ReceivingAppDisabled", {
  code: "receiving_app_disabled",
  status: 403
}) {}

export class AppVerificationSingleApp extends ApiError<AppVerificationSingleApp>()("AppVerificationSingleApp", {
  code: "app_verification_single_app",
  status: 422,
  details: Schema.Struct({ field: Schema.Literal("audiences") })
}) {}

export class InvalidProofRefreshToken extends ApiError<InvalidProofRefreshToken>()("InvalidProofRefreshToken", {
  code: "invalid_proof_refresh_token",
  status: 400
}) {}

export class ProofRefreshTokenReused extends ApiError<ProofRefreshTokenReused>()("ProofRefreshTokenReused", {
  code: "proof_refresh_token_reused",
  status: 400
}) {}

export class NotIssuingApp extends ApiError<NotIssuingApp>()("NotIssuingApp", {
  code: "not_issuing_app",
  status: 403
}) {}

export class ProofExpired extends ApiError<ProofExpired>()("ProofExpired", {
  code: "proof_expired",
  status: 410
}) {}

export class ProofRevoked extends ApiError<ProofRevoked>()("ProofRevoked", {
  code: "proof_revoked",
  status: 410
}) {}

export class ProofNotFound extends ApiError<ProofNotFound>()("ProofNotFound", {
  code: "proof_not_found",
  status: 404
}) {}

export class InvalidProofId extends ApiError<InvalidProofId>()("InvalidProofId", {
  code: "invalid_proof_id",
  status: 400
}) {}
