import type { Migrations } from "@platform/database"
import { IdempotencyAnswerExpiryMigration, IdempotencyMigration } from "@platform/idempotency"
import { MessageOutboxMigration } from "@platform/mail"
import { RateLimitMigration } from "@platform/rate-limit"
import { SweepLeasesMigration } from "@platform/service"
import { VerificationMigration } from "@platform/verification-codes"
import { AppLoginMigration } from "./app-login/AppLoginMigration.ts"
import { ApplicationSessionsMigration } from "./application-sessions/ApplicationSessionsMigration.ts"
import { ApplicationsMigration } from "./applications/ApplicationsMigration.ts"
import { CodeChallengesMigration } from "./challenges/CodeChallengesMigration.ts"
import { EventsMigration } from "./events/EventsMigration.ts"
import { AccountChangesMigration } from "./account-changes/AccountChangesMigration.ts"
import { IdentitiesMigration } from "./identities/IdentitiesMigration.ts"
import { SignupSessionsMigration } from "./login/SignupSessionsMigration.ts"
import { GovernanceMigration } from "./organizations/GovernanceMigration.ts"
import { OrganizationsMigration } from "./organizations/OrganizationsMigration.ts"
import { DevelopmentPhoneCodesMigration } from "./phone-verification/DevelopmentPhoneCodesMigration.ts"
import { PlatformAdminsMigration } from "./platform-admins/PlatformAdminsMigration.ts"
import { SessionsMigration } from "./sessions/SessionsMigration.ts"
import { SiliconCredentialsMigration } from "./silicon-auth/SiliconCredentialsMigration.ts"
import { SsoMigration } from "./sso/SsoMigration.ts"
import { StepUpTokensMigration } from "./step-up/StepUpTokensMigration.ts"
import { WebhooksMigration } from "./webhooks/WebhooksMigration.ts"

/**
 * The IAM database, in the order it was built. Append only: a migration
 * that has run is never edited, and a new one takes the next number.
 */
export const iamMigrations: Migrations = {
  "0001_sweep_leases": SweepLeasesMigration,
  "0002_rate_limits": RateLimitMigration,
  "0003_idempotency": IdempotencyMigration,
  "0004_idempotency_answer_expiry": IdempotencyAnswerExpiryMigration,
  "0005_outgoing_messages": MessageOutboxMigration,
  "0006_verification_codes": VerificationMigration,
  "0007_identities": IdentitiesMigration,
  "0008_sessions": SessionsMigration,
  "0009_code_challenges": CodeChallengesMigration,
  "0010_development_phone_codes": DevelopmentPhoneCodesMigration,
  "0011_step_up_tokens": StepUpTokensMigration,
  "0012_signup_sessions": SignupSessionsMigration,
  "0013_iam_events": EventsMigration,
  "0014_organizations": OrganizationsMigration,
  "0015_silicon_credentials": SiliconCredentialsMigration,
  "0016_platform_admins": PlatformAdminsMigration,
  "0017_applications": ApplicationsMigration,
  "0018_application_sessions": ApplicationSessionsMigration,
  "0019_app_login": AppLoginMigration,
  "0020_accounts_feed_position": AccountChangesMigration,
  "0021_organization_governance": GovernanceMigration,
  "0022_sso": SsoMigration,
  "0023_webhooks": WebhooksMigration
}
