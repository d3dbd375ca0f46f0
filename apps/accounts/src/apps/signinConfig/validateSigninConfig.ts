import { Either } from "effect"
import { type FieldProblem, Problems } from "./FieldProblem.ts"
import type { SigninConfig } from "./SigninConfig.ts"
import { validateBranding, validateCopy } from "./validateBranding.ts"
import { validateIdps, type SecretsState } from "./validateIdps.ts"
import { validateLists } from "./validateLists.ts"

/**
 * Every rule of the signin_config table, all problems at once. `secrets`
 * says which idp secrets exist after the change (by default the config's masks).
 */
export const validateSigninConfig = (
  config: SigninConfig,
  secrets: SecretsState = { client_secret_set: config.idp_a.client_secret_set, private_key_set: config.idp_b.private_key_set }
): Either.Either<SigninConfig, ReadonlyArray<FieldProblem>> => {
  const problems = new Problems()
  validateLists(config, problems)
  validateIdps(config, secrets, problems)
  validateBranding(config.branding, problems)
  validateCopy(config.copy, problems)
  return problems.list.length === 0 ? Either.right(config) : Either.left(problems.list)
}
