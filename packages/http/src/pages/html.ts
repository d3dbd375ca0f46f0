/**
 * HTML built by tagged templates that escape every interpolated value unless it
 * is already `Html` (made by `html` itself): app names, signin_config texts and
 * anything a person typed can only ever be text.
 */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value
  }
}

export type Part = Html | string | number | null | undefined | false | ReadonlyArray<Part>

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!)

const render = (part: Part): string =>
  part instanceof Html
    ? part.value
    : Array.isArray(part)
    ? part.map(render).join("")
    : part === null || part === undefined || part === false
    ? ""
    : escapeHtml(String(part))

export const html = (strings: TemplateStringsArray, ...parts: ReadonlyArray<Part>): Html =>
  new Html(strings.reduce((out, text, i) => out + text + (i < parts.length ? render(parts[i]!) : ""), ""))

/** Markup written by us, never by a caller (the inline style block made from validated colors). */
export const trusted = (markup: string): Html => new Html(markup)
