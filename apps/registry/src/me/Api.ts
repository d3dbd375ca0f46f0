import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RegistryBearer } from "../auth/Bearer.ts"

export const AccountIdentity = Schema.Struct({
  uuid: Schema.String,
  id: Schema.NullOr(Schema.String).annotations({ description: "c:… or si:…; null for an account that gave its id up" }),
  display_name: Schema.String,
  verified_emails: Schema.Array(Schema.String).annotations({ description: "A Carbon's verified emails; empty for a Silicon" })
}).annotations({ identifier: "AccountIdentity" })

export class MeApi extends HttpApiGroup.make("me")
  .add(
    HttpApiEndpoint.get("me", "/v1/me")
      .addSuccess(AccountIdentity)
      .annotate(OpenApi.Description, "Who the bearer is, as accounts knows the account now.")
  )
  .middleware(RegistryBearer)
  .annotate(OpenApi.Title, "Identity")
{}
