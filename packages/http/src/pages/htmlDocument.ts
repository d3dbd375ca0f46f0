import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"
import type { Html } from "./html.ts"

/** What a page route declares it answers: an HTML document. */
export const HtmlText = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/html" }))

/** A whole HTML document as a response. */
export const htmlResponse = (
  document: Html,
  options: { readonly status?: number; readonly headers?: Readonly<Record<string, string>> } = {}
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.text(document.value, {
    status: options.status ?? 200,
    contentType: "text/html; charset=utf-8",
    ...(options.headers === undefined ? {} : { headers: options.headers })
  })
