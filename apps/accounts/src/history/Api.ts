import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse, InvalidCursor, Page, PageQueryFields } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../auth/AccountAuth.ts"
import { HistoryItem, HistoryKind } from "./HistoryItem.ts"

export const HistoryPage = Page(HistoryItem, "HistoryPage")

export class HistoryApi extends HttpApiGroup.make("history")
  .add(
    HttpApiEndpoint.get("list", "/v1/me/history")
      .setUrlParams(Schema.Struct({
        kind: Schema.optional(HistoryKind.annotations({ description: "Only entries of this kind" })),
        ...PageQueryFields
      }))
      .addSuccess(HistoryPage)
      .addError(errorResponse(InvalidCursor))
      .annotate(
        OpenApi.Description,
        "The caller's history, newest first, kept permanently: items {kind, occurred_at, …the kind's fields}. Kinds: " +
          "signin (each sign-in), id_change, custodian (decided custodian requests naming the caller), app_access " +
          "(membership granted, access removed, signed out of an app), security (sign-ins revoked, STK rotations, Silicon " +
          "keys added or revoked), proof (none yet: proofs are not issued by this version). A cursor carries its " +
          "position only: pass the same kind with it."
      )
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "History")
{}
