import type { Answer } from "./http.ts"

/**
 * A browser as far as the hosted flow can tell: a cookie jar for one origin,
 * Origin on every POST, redirects not followed.
 */
export class Browser {
  readonly cookies = new Map<string, string>()
  /** The Set-Cookie lines of the last response, whole (attributes included). */
  lastSetCookies: ReadonlyArray<string> = []

  constructor(readonly origin: string) {}

  private remember(response: Response) {
    this.lastSetCookies = response.headers.getSetCookie()
    for (const line of this.lastSetCookies) {
      const [pair, ...attributes] = line.split(";")
      const index = pair!.indexOf("=")
      const name = pair!.slice(0, index).trim()
      const value = pair!.slice(index + 1).trim()
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ""
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([n, v]) => `${n}=${v}`).join("; ") }
  }

  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    return this.send(method, path, body === undefined ? undefined : JSON.stringify(body), "application/json", headers)
  }

  /** POSTs raw bytes (an image) with their media type. */
  upload(path: string, contentType: string, bytes: Uint8Array): Promise<Answer> {
    return this.send("POST", path, bytes, contentType, {})
  }

  private async send(
    method: string,
    path: string,
    body: string | Uint8Array | undefined,
    contentType: string,
    headers: Record<string, string>
  ): Promise<Answer> {
    const response = await fetch(`${this.origin}${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...this.cookieHeader(),
        ...(method === "POST" ? { origin: this.origin, "content-type": contentType } : {}),
        ...headers
      },
      ...(body === undefined ? {} : { body })
    })
    this.remember(response)
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text.length > 0 ? JSON.parse(text) : null
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed }
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.request("GET", path, undefined, headers)
  }

  post(path: string, body: unknown = {}, headers: Record<string, string> = {}) {
    return this.request("POST", path, body, headers)
  }
}
