import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { IamBearer } from "../auth/IamBearer.ts"
import { IdentityKind } from "../identities/Identity.ts"

export const CurrentSession = Schema.Struct({
  session_id: Schema.String,
  identity: Schema.Struct({ uuid: Schema.String, id: Schema.String, kind: IdentityKind })
}).annotations({ identifier: "CurrentSession" })

export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.get("current", "/api/v1/session")
      .addSuccess(CurrentSession)
      .annotate(OpenApi.Description, "The session this bearer belongs to and who it speaks for.")
  )
  .middleware(IamBearer)
  .annotate(OpenApi.Title, "Sessions")
{}
