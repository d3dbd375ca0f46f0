/** A response read whole: status, headers and the parsed JSON body (or the text when it is not JSON). */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

export const fetchAnswer = async (url: string, init?: RequestInit): Promise<Answer> => {
  const response = await fetch(url, init)
  const text = await response.text()
  let body: unknown = text
  try {
    body = text.length > 0 ? JSON.parse(text) : null
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body }
}
