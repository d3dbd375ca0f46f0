import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { registryError } from "../errors.ts"
import { TargetSchema, UnknownTarget } from "./Targets.ts"

export const TargetEntry = Schema.Struct({
  target: TargetSchema,
  population: Schema.Number.annotations({ description: "Distinct accounts that installed a package of this target" }),
  runner_available: Schema.Boolean.annotations({ description: "Whether packages of this target can be validated here now" })
}).annotations({ identifier: "TargetEntry" })

export const TargetsAnswer = Schema.Struct({
  items: Schema.Array(TargetEntry),
  total_population: Schema.Number.annotations({ description: "Distinct accounts with any install" }),
  total_reach: Schema.Number.annotations({ description: "Distinct accounts with an install of any listed target, each counted once" }),
  source: Schema.Literal("registered_accounts")
}).annotations({ identifier: "Targets" })

export class TargetsApi extends HttpApiGroup.make("targets")
  .add(
    HttpApiEndpoint.get("list", "/v1/targets")
      .setUrlParams(Schema.Struct({
        targets: Schema.optional(Schema.String.annotations({ description: "Comma list of targets; all when absent" }))
      }))
      .addSuccess(TargetsAnswer)
      .addError(registryError(UnknownTarget))
      .annotate(
        OpenApi.Description,
        "The targets packages are built for, with how many registered accounts installed a package of each and whether this registry can run (validate) them. An unknown target is 400 unknown_target listing the accepted ones."
      )
  )
  .annotate(OpenApi.Title, "Targets")
{}
