/**
 * What no text the services take may hold. PostgreSQL cannot store NUL in
 * text, and a lone surrogate is not Unicode text at all; parameters (path and
 * query, which name things) take no control characters either.
 */

const isLoneSurrogateAt = (text: string, index: number): boolean => {
  const code = text.charCodeAt(index)
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = text.charCodeAt(index + 1)
    return !(next >= 0xdc00 && next <= 0xdfff)
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = text.charCodeAt(index - 1)
    return !(previous >= 0xd800 && previous <= 0xdbff)
  }
  return false
}

/** NUL or a lone surrogate: refused in every string of a body. */
export const textProblem = (text: string): string | undefined => {
  for (let index = 0; index < text.length; index++) {
    if (text.charCodeAt(index) === 0) return "must not contain NUL (U+0000)"
    if (isLoneSurrogateAt(text, index)) return "must be valid Unicode (it holds a lone surrogate)"
  }
  return undefined
}

const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f)

/** A body's rule plus no control characters (C0, DEL, C1): refused in path and query parameters. */
export const parameterProblem = (text: string): string | undefined => {
  for (let index = 0; index < text.length; index++) {
    if (isControl(text.charCodeAt(index))) return "must not contain control characters"
  }
  return textProblem(text)
}

/**
 * Every string (and object key) of a parsed JSON value that breaks
 * `textProblem`, by its dot-separated path, walked without recursion.
 */
export const jsonTextProblems = (value: unknown): Record<string, string> => {
  const problems: Record<string, string> = {}
  const pending: Array<readonly [unknown, string]> = [[value, ""]]
  const note = (path: string, problem: string | undefined) => {
    const field = path === "" ? "body" : path
    if (problem !== undefined && !(field in problems)) problems[field] = problem
  }
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path] = next
    if (typeof item === "string") note(path, textProblem(item))
    else if (Array.isArray(item)) item.forEach((element, index) => pending.push([element, path === "" ? String(index) : `${path}.${index}`]))
    else if (typeof item === "object" && item !== null) {
      for (const [key, element] of Object.entries(item)) {
        const at = path === "" ? key : `${path}.${key}`
        note(at, textProblem(key))
        pending.push([element, at])
      }
    }
  }
  return problems
}
