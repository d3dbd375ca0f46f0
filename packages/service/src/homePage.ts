import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

/** A link on a service's home page, relative to the service (`/docs`) or absolute. */
export interface HomeLink {
  readonly href: string
  readonly label: string
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

export const homePageHtml = (name: string, links: ReadonlyArray<HomeLink>): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(name)}</title></head>` +
  `<body><h1>${escapeHtml(name)}</h1><ul>` +
  links.map((link) => `<li><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></li>`).join("") +
  `</ul></body></html>`

/** No scripts, styles or forms: the page only links. */
const HOME_PAGE_HEADERS = {
  "content-security-policy": "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff"
}

/**
 * `GET /`: a page a person who opens the service's address in a browser can
 * use (its name and where to go next) instead of a JSON 404. Served beside
 * the HttpApi, like the docs page, so it is not part of /openapi.json.
 */
export const homePage = (path: `/${string}`, name: string, links: ReadonlyArray<HomeLink>) => {
  const page = HttpServerResponse.html(homePageHtml(name, links)).pipe(HttpServerResponse.setHeaders(HOME_PAGE_HEADERS))
  return HttpApiBuilder.Router.use((router) => router.get(path, Effect.succeed(page)))
}
