import type { Operation } from "./badInput.ts"

type Json = Record<string, unknown>

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const ENVELOPE_KEYS = new Set(["code", "message", "hint", "details"])

/**
 * Why an error answer is not one the operation documents for its status
 * (undefined when it is): the service's envelope with a documented code, an
 * RFC 6749 body where the operation documents one, or a page where it
 * documents a plain string.
 */
export const envelopeProblem = (
  operation: Operation,
  status: number,
  body: unknown,
  resolve: (schema: unknown) => Json
): string | undefined => {
  // The conventions refuse a control character in any query parameter, declared or not (decisions.md).
  if (status === 400 && isJson(body) && isJson(body["error"]) && body["error"]["code"] === "invalid_query") return undefined
  const response = operation.responses[String(status)]
  if (response === undefined) return `status ${status} is not documented`
  // The JSON body's schema, or a page's or a text's where the operation answers one (the site's assets: a plain string).
  const content = (response["content"] ?? {}) as Json
  const schema = ((content["application/json"] ?? content["text/html"] ?? content["text/plain"]) as Json | undefined)?.["schema"]
  const members = (resolve(schema)["anyOf"] as Array<unknown> | undefined ?? [schema]).map(resolve)
  if (isJson(body) && isJson(body["error"])) {
    const error = body["error"]
    if (typeof error["code"] !== "string" || typeof error["message"] !== "string") return "envelope without code or message"
    if (Object.keys(error).some((key) => !ENVELOPE_KEYS.has(key))) return "envelope with extra members"
    const codes = members.flatMap((member) => {
      const envelope = resolve((member["properties"] as Json | undefined)?.["error"])
      return (resolve((envelope["properties"] as Json | undefined)?.["code"])["enum"] ?? []) as Array<unknown>
    })
    return codes.includes(error["code"]) ? undefined : `code ${error["code"]} is not documented for ${status}`
  }
  if (isJson(body) && typeof body["error"] === "string") {
    const keys = Object.keys(body)
    if (typeof body["error_description"] !== "string" || keys.length !== 2) return "RFC 6749 body with wrong members"
    const oauth = members.some((member) => isJson(member["properties"]) && "error_description" in member["properties"])
    return oauth ? undefined : `an RFC 6749 body is not documented for ${status}`
  }
  if (typeof body === "string" && members.some((member) => member["type"] === "string")) return undefined
  return "not an error envelope"
}
