import { Either } from "effect"
import { type FieldProblem, Problems } from "./FieldProblem.ts"
import type { SigninConfig } from "./SigninConfig.ts"
import { validateBranding, validateCopy } from "./validateBranding.ts"
import { validateIdps } from "./validateIdps.ts"
import { validateLists } from "./validateLists.ts"

/**
 * Every rule of the signin_config table, all problems at once. Whether an idp
 * secret is stored is read from the config's `client_secret_set` / `private_key_set`.
 */
export const validateSigninConfig = (config: SigninConfig): Either.Either<SigninConfig, ReadonlyArray<FieldProblem>> => {
  const problems = new Problems()
  validateLists(config, problems)
  validateIdps(config, problems)
  validateBranding(config.branding, problems)
  validateCopy(config.copy, problems)
  return problems.list.length === 0 ? Either.right(config) : Either.left(problems.list)
}
