import { parseBasic } from "@platform/auth"
import { ValidationFailed } from "@platform/http"
import { InvalidCredentials } from "@platform/rate-limit"
import { Effect } from "effect"

const missing = () =>
  new InvalidCredentials({
    message: "Send the Silicon's si: id and IAM token.",
    hint: "As HTTP Basic (username si:…, password stk-…), or as a form with username and password."
  })

/**
 * The id and token of a Silicon login: from HTTP Basic, or from the form's username and password,
 * never both. None at all is the same 401 as wrong ones.
 */
export const siliconCredentialsOf = (
  authorization: string | undefined,
  form: { readonly username?: string | undefined; readonly password?: string | undefined }
): Effect.Effect<{ readonly username: string; readonly token: string }, InvalidCredentials | ValidationFailed> => {
  const inForm = form.username !== undefined || form.password !== undefined
  if (authorization !== undefined && authorization.trim() !== "") {
    if (inForm) {
      return Effect.fail(
        new ValidationFailed({
          message: "Send the credentials as HTTP Basic or in the form, not both.",
          details: { fields: { username: "must not be sent with an Authorization header" } }
        })
      )
    }
    // An si: id holds a colon and a token never does: the last colon separates them (a form-encoded id works too).
    const basic = parseBasic(authorization, "last")
    return basic === undefined ? Effect.fail(missing()) : Effect.succeed({ username: basic.clientId, token: basic.secret })
  }
  if (!inForm) return Effect.fail(missing())
  if (form.username === undefined || form.password === undefined) {
    const absent = form.username === undefined ? "username" : "password"
    return Effect.fail(
      new ValidationFailed({ message: `The form needs ${absent} too.`, details: { fields: { [absent]: "is required" } } })
    )
  }
  return Effect.succeed({ username: form.username, token: form.password })
}
