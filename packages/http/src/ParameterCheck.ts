import type { ApiErrorInstance } from "./ApiError.ts"
import { InvalidPath, InvalidQuery } from "./errors.ts"
import { percentDecoded } from "./RequestUrl.ts"
import type { Route } from "./RouteTable.ts"
import { parameterProblem } from "./TextRules.ts"

/**
 * Refuses, before the router, a path parameter that is not percent-encoded
 * UTF-8 (overlong forms, encoded surrogates, stray bytes) or that holds a
 * control character, and any query parameter, declared or not, holding one.
 */
export const parameterRefusal = (route: Route, path: string, url: string): ApiErrorInstance | undefined => {
  const names = route.paramNames.length === 0 ? [] : route.path.split("/")
  const values = names.length === 0 ? [] : path.split("/")
  for (let index = 0; index < names.length; index++) {
    const name = names[index]
    if (name === undefined || !name.startsWith(":")) continue
    const parameter = name.slice(1).replace(/\?$/, "")
    const value = percentDecoded(values[index] ?? "")
    const problem = value === undefined ? "is not valid percent-encoded UTF-8" : parameterProblem(value)
    if (problem !== undefined) {
      return new InvalidPath({ message: `Path parameter ${parameter} ${problem}.`, details: { parameter, problem } })
    }
  }
  const query = url.indexOf("?")
  if (query === -1) return undefined
  for (const [parameter, value] of new URLSearchParams(url.slice(query + 1))) {
    const problem = parameterProblem(parameter) ?? parameterProblem(value)
    if (problem !== undefined) {
      return new InvalidQuery({ message: `Query parameter ${parameter}: ${problem}.`, details: { parameter, problem } })
    }
  }
  return undefined
}
