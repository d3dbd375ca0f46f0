import type { Migrations } from "@platform/database"
import { IdempotencyAnswerExpiryMigration, IdempotencyMigration } from "@platform/idempotency"
import { MessageOutboxMigration } from "@platform/mail"
import { RateLimitMigration } from "@platform/rate-limit"
import { SigningKeysMigration } from "@platform/signing-keys"
import { SweepLeasesMigration } from "@platform/service"
import { VerificationMigration } from "@platform/verification-codes"
import { AccountsMigration } from "./accounts/AccountsMigration.ts"
import { AppsIdTokenAlgMigration, AppsMigration } from "./apps/AppsMigration.ts"
import { AuthorizationCodesMigration } from "./oauth/AuthorizationCodesMigration.ts"
import { AppSigninsMigration } from "./oauth/AppSigninsMigration.ts"
import { DeviceCodesMigration } from "./device/DeviceCodesMigration.ts"
import { FlowsMigration } from "./flows/FlowsMigration.ts"
import { EventFeedMigration } from "./events/EventFeedMigration.ts"
import { EventsMigration } from "./events/EventsMigration.ts"
import { EventPositionsMigration } from "./events/EventPositionsMigration.ts"
import { SubscriptionsMigration } from "./subscriptions/SubscriptionsMigration.ts"
import { SigninsMigration } from "./oauth/SigninsMigration.ts"
import { SigninViewChangesMigration } from "./oauth/SigninViewChangesMigration.ts"
import { ProvidersFormPostMigration, ProvidersMigration } from "./providers/ProvidersMigration.ts"
import { ProfileMigration } from "./profile/ProfileMigration.ts"
import { SignupPhotosMigration } from "./profile/SignupPhotosMigration.ts"
import { IdentityLinksMigration } from "./identities/IdentityLinksMigration.ts"
import { TelemetryMigration } from "./telemetry/TelemetryMigration.ts"
import { ReportsMigration } from "./reports/ReportsMigration.ts"
import { SiliconKeysMigration } from "./silicons/keys/SiliconKeysMigration.ts"
import { LoginStreaksMigration } from "./silicons/LoginStreaksMigration.ts"
import { SiliconsMigration } from "./silicons/SiliconsMigration.ts"
import { OpenStreamsMigration } from "./stream/OpenStreamsMigration.ts"
import { ShortLivedTokensMigration } from "./short-lived-tokens/ShortLivedTokensMigration.ts"
import { ProofsMigration } from "./proofs/ProofsMigration.ts"
import { ProofViewChangesMigration } from "./proofs/ProofViewChangesMigration.ts"
import { FederationsMigration } from "./federations/FederationsMigration.ts"
import { ImportsMigration } from "./imports/ImportsMigration.ts"

/**
 * The accounts database, in the order it was built. Append only: a migration
 * that has run is never edited, and a new one takes the next number.
 */
export const accountsMigrations: Migrations = {
  "0001_signing_keys": SigningKeysMigration,
  "0002_rate_limits": RateLimitMigration,
  "0003_idempotency": IdempotencyMigration,
  "0004_reports": ReportsMigration,
  "0005_accounts": AccountsMigration,
  "0006_outgoing_messages": MessageOutboxMigration,
  "0007_verification_codes": VerificationMigration,
  "0008_signins": SigninsMigration,
  "0009_device_codes": DeviceCodesMigration,
  "0010_account_events": EventsMigration,
  "0011_silicons": SiliconsMigration,
  "0012_silicon_keys_per_silicon": SiliconKeysMigration,
  "0013_apps": AppsMigration,
  "0014_authorization_codes": AuthorizationCodesMigration,
  "0015_app_signins": AppSigninsMigration,
  "0016_flows": FlowsMigration,
  "0017_linked_identities": ProvidersMigration,
  "0018_provider_form_post": ProvidersFormPostMigration,
  "0019_event_feed": EventFeedMigration,
  "0020_sweep_leases": SweepLeasesMigration,
  "0021_event_subscriptions": SubscriptionsMigration,
  "0022_event_streams": OpenStreamsMigration,
  "0023_app_id_token_alg": AppsIdTokenAlgMigration,
  "0024_id_changes_photos_deletion": ProfileMigration,
  "0025_short_lived_tokens": ShortLivedTokensMigration,
  "0026_proofs": ProofsMigration,
  "0027_silicon_federations": FederationsMigration,
  "0028_imports": ImportsMigration,
  "0029_telemetry": TelemetryMigration,
  "0030_identity_links": IdentityLinksMigration,
  "0031_idempotency_answer_expiry": IdempotencyAnswerExpiryMigration,
  "0032_account_event_positions": EventPositionsMigration,
  "0033_signup_photos": SignupPhotosMigration,
  "0034_login_streak_failures": LoginStreaksMigration,
  "0035_signin_view_changes": SigninViewChangesMigration,
  "0036_proof_view_changes": ProofViewChangesMigration
}
