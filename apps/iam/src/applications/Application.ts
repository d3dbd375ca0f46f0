import { Schema } from "effect"
import { ApplicationScope } from "./scopes.ts"
import { ApplicationEventType } from "./webhookScope.ts"

/** An application id: 3 to 30 of a-z 0-9 - _ (as accounts' app ids). */
export const APP_ID_PATTERN = /^[a-z0-9_-]{3,30}$/
export const AppId = Schema.String.pipe(Schema.pattern(APP_ID_PATTERN)).annotations({
  description: "3 to 30 characters of a-z 0-9 - _"
})

const publicFields = {
  app_id: Schema.String,
  name: Schema.String,
  app_scope: Schema.Array(ApplicationScope).annotations({
    description: "The scopes in effect (identity and self.profile.read always; critical ones once a platform admin approved them)"
  }),
  webhook_scope: Schema.Array(ApplicationEventType).annotations({ description: "The IAM webhook events the application subscribes to" }),
  consent_required: Schema.Boolean.annotations({ description: "Whether the login asks the person's consent before the organization picker" }),
  scope_version: Schema.Int.annotations({ description: "Starts at 1; each change of app_scope adds one, and a login needs consent to the new version" })
}

/** What anyone may read of an application: what its login page shows. No secrets, no owners. */
export const PublicApplication = Schema.Struct(publicFields).annotations({ identifier: "PublicApplication" })
export type PublicApplication = typeof PublicApplication.Type

export const PendingScope = Schema.Struct({
  scope: ApplicationScope,
  requested_at: Schema.String
}).annotations({ identifier: "PendingScope" })

/** The whole registration, for its operator and platform admins (the client secret is never shown again). */
export const RegisteredApplication = Schema.Struct({
  ...publicFields,
  pending_scopes: Schema.Array(PendingScope).annotations({ description: "Critical scopes asked for and awaiting a platform admin's review" }),
  callback_urls: Schema.Array(Schema.String).annotations({ description: "Where a login may send the SLTs: matched exactly" }),
  owner_uuid: Schema.NullOr(Schema.String).annotations({ description: "The Carbon that registered it, who may rotate its client secret" }),
  organization_id: Schema.NullOr(Schema.String).annotations({ description: "The owning organization, whose admins may also rotate the secret" }),
  created_at: Schema.String,
  secret_rotated_at: Schema.String
}).annotations({ identifier: "RegisteredApplication" })
export type RegisteredApplication = typeof RegisteredApplication.Type

/** A registration's answer: the application and its client secret, shown only here. */
export const ApplicationWithSecret = Schema.Struct({
  application: RegisteredApplication,
  client_secret: Schema.String.annotations({ description: "acs_…: shown once; IAM keeps a SHA-256 digest" })
}).annotations({ identifier: "ApplicationWithSecret" })
