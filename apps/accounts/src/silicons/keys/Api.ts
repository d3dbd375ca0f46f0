import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorResponse } from "@platform/http"
import { Schema } from "effect"
import { AccountAuth } from "../../auth/AccountAuth.ts"
import { CarbonOnly, SiliconOnly } from "../../auth/errors.ts"
import { KeyExists, KeyNotFound, SiliconNotFound, TooManyKeys } from "../errors.ts"
import { KeyId, NewSiliconKey, SiliconKey, SiliconKeyList } from "./SiliconKey.ts"

const InCustody = { uuid: Schema.String.annotations({ description: "The Silicon's uuid" }) }

const ADD =
  "Registers an Ed25519 public key (a JWK) for signed sign-in assertions. Its id is the RFC 7638 thumbprint, which an assertion may name as kid. At most 10 live keys (409 too_many_keys); a key live already is 409 key_exists."
const REMOVE = "Revokes the key: assertions it signs are refused from then on."

export class SiliconKeysApi extends HttpApiGroup.make("siliconKeys")
  .add(
    HttpApiEndpoint.get("listOwn", "/v1/me/keys")
      .addSuccess(SiliconKeyList)
      .addError(errorResponse(SiliconOnly))
      .annotate(OpenApi.Description, "The signed-in Silicon's live public keys, newest first.")
  )
  .add(
    HttpApiEndpoint.post("addOwn", "/v1/me/keys")
      .setPayload(NewSiliconKey)
      .addSuccess(SiliconKey, { status: 201 })
      .addError(errorResponse(SiliconOnly))
      .addError(errorResponse(KeyExists))
      .addError(errorResponse(TooManyKeys))
      .annotate(OpenApi.Description, ADD)
  )
  .add(
    HttpApiEndpoint.del("removeOwn", "/v1/me/keys/:key_id")
      .setPath(Schema.Struct({ key_id: KeyId }))
      .addSuccess(Schema.Void)
      .addError(errorResponse(SiliconOnly))
      .addError(errorResponse(KeyNotFound))
      .annotate(OpenApi.Description, REMOVE)
  )
  .add(
    HttpApiEndpoint.get("listInCustody", "/v1/me/silicons/:uuid/keys")
      .setPath(Schema.Struct(InCustody))
      .addSuccess(SiliconKeyList)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .annotate(OpenApi.Description, "The live public keys of a Silicon in the caller's custody, newest first.")
  )
  .add(
    HttpApiEndpoint.post("addInCustody", "/v1/me/silicons/:uuid/keys")
      .setPath(Schema.Struct(InCustody))
      .setPayload(NewSiliconKey)
      .addSuccess(SiliconKey, { status: 201 })
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .addError(errorResponse(KeyExists))
      .addError(errorResponse(TooManyKeys))
      .annotate(OpenApi.Description, `For a Silicon in the caller's custody. ${ADD}`)
  )
  .add(
    HttpApiEndpoint.del("removeInCustody", "/v1/me/silicons/:uuid/keys/:key_id")
      .setPath(Schema.Struct({ ...InCustody, key_id: KeyId }))
      .addSuccess(Schema.Void)
      .addError(errorResponse(CarbonOnly))
      .addError(errorResponse(SiliconNotFound))
      .addError(errorResponse(KeyNotFound))
      .annotate(OpenApi.Description, `For a Silicon in the caller's custody. ${REMOVE}`)
  )
  .middleware(AccountAuth)
  .annotate(OpenApi.Title, "Silicon keys")
{}
