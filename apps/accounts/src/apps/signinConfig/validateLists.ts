import { checkRedirectUri } from "@platform/oauth"
import type { Either } from "effect"
import type { Problems } from "./FieldProblem.ts"
import { allMethods } from "./fields.ts"
import type { SigninConfig } from "./SigninConfig.ts"
import { checkDomain, checkOrigin } from "./urlRules.ts"

const checkList = (
  problems: Problems,
  field: string,
  items: ReadonlyArray<string>,
  max: number,
  rule?: (item: string) => Either.Either<unknown, string>
) => {
  if (items.length > max) problems.add(field, `must have at most ${max} entries`)
  items.forEach((item, index) => {
    if (items.indexOf(item) < index) problems.add(`${field}.${index}`, "is a duplicate")
    else if (rule) problems.check(`${field}.${index}`, item, rule)
  })
}

/** Methods, their order, the URL and domain lists and the detail names. */
export const validateLists = (config: SigninConfig, problems: Problems): void => {
  if (!allMethods.some((method) => config.methods[method])) problems.add("methods", "must enable at least one method")
  const order = config.method_order
  if (order.length !== allMethods.length || new Set(order).size !== allMethods.length) {
    problems.add("method_order", `must list each of ${allMethods.join(", ")} exactly once`)
  }
  checkList(problems, "redirect_uris", config.redirect_uris, 50, checkRedirectUri)
  checkList(problems, "allowed_origins", config.allowed_origins, 50, checkOrigin)
  checkList(problems, "allowed_email_domains", config.allowed_email_domains, 100, checkDomain)
  checkList(problems, "required_fields", config.required_fields, 4)
  checkList(problems, "optional_fields", config.optional_fields, 4)
  config.optional_fields.forEach((name, index) => {
    if (config.required_fields.includes(name)) problems.add(`optional_fields.${index}`, `${name} is already in required_fields`)
  })
}
