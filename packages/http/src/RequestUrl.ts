/** A request URL's path, without its query. */
export const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/** A percent-encoded part of a URL decoded, or undefined when it is not percent-encoded UTF-8. */
export const percentDecoded = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw)
  } catch {
    return undefined
  }
}

const NO_SEARCH_PARAMS: Readonly<Record<string, string | Array<string>>> = Object.freeze({})

/** The query's parameters, a repeated one as an array (what Effect's router gives handlers as ParsedSearchParams). */
export const searchParamsOf = (url: string): Readonly<Record<string, string | Array<string>>> => {
  const start = url.indexOf("?")
  if (start === -1) return NO_SEARCH_PARAMS
  const params: Record<string, string | Array<string>> = {}
  for (const [key, value] of new URLSearchParams(url.slice(start + 1))) {
    const seen = params[key]
    params[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]
  }
  return params
}
