import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse } from "@platform/http"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { StepUpRefusals } from "../auth/stepUpErrors.ts"
import { PublicApplication } from "./Application.ts"
import { Bundle } from "./Bundle.ts"
import { ApplicationNotFound, ApplicationOwnerRequired, BundleNotFound } from "./errors.ts"

export const ApplicationPath = Schema.Struct({ app_id: Schema.String })

export const ClientSecretRotation = Schema.Struct({
  app_id: Schema.String,
  client_secret: Schema.String.annotations({ description: "acs_…: the new secret, shown only here; the previous one stops working now" }),
  secret_rotated_at: Schema.String
}).annotations({ identifier: "ClientSecretRotation" })

/** What a login page (or anyone) may read of registered applications and bundles. */
export class ApplicationsApi extends HttpApiGroup.make("applications")
  .add(
    HttpApiEndpoint.get("read", "/api/v1/applications/:app_id")
      .setPath(ApplicationPath)
      .addSuccess(PublicApplication)
      .addError(errorResponse(ApplicationNotFound))
      .annotate(OpenApi.Description, "An application as its login page shows it: name, scopes in effect, webhook events, consent_required, scope_version. No secrets.")
  )
  .add(
    HttpApiEndpoint.get("bundle", "/api/v1/bundles/:bundle_id")
      .setPath(Schema.Struct({ bundle_id: Schema.String }))
      .addSuccess(Bundle)
      .addError(errorResponse(BundleNotFound))
      .annotate(OpenApi.Description, "A bundle and its applications, in order, as /login?bundle_id= shows them.")
  )
  .annotate(OpenApi.Title, "Applications")
{}

/** What an application's owner does with its credentials (direct IAM bearer). */
export class ApplicationCredentialsApi extends HttpApiGroup.make("applicationCredentials")
  .add(
    HttpApiEndpoint.post("rotateClientSecret", "/api/v1/applications/:app_id/client-secret-rotations")
      .setPath(ApplicationPath)
      .addSuccess(ClientSecretRotation, { status: 201 })
      .addError(errorResponse(ApplicationNotFound))
      .addError(errorResponse(ApplicationOwnerRequired))
      .addError(StepUpRefusals)
      .annotate(
        OpenApi.Description,
        "A new client secret for the application, shown once; the previous secret stops working at once (sessions already open stay). " +
          "The owner only (the Carbon that registered it; 403 application_owner_required otherwise), with X-Step-Up-Token for " +
          "application.client_secret.rotate on this app_id, minted for this application. A retry with the same Idempotency-Key " +
          "replays the answer for 10 minutes."
      )
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Application credentials")
{}
