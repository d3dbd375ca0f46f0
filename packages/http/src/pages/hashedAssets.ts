import { HttpApiEndpoint, HttpApiSchema, HttpServerResponse, OpenApi } from "@effect/platform"
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { extname, join } from "node:path"
import { Schema } from "effect"

const TYPES: Readonly<Record<string, string>> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml"
}

export const IMMUTABLE = "public, max-age=31536000, immutable"

export interface HashedAsset {
  readonly url: string
  readonly body: Uint8Array
  readonly contentType: string
}

export interface HashedAssets {
  /** The hashed address of a file of the folder (`/assets/site.3f2a9c1b04de.css`). */
  readonly url: (name: string) => string
  /** The asset a hashed file name stands for, if any. */
  readonly byFile: (file: string) => HashedAsset | undefined
}

/**
 * A site's static files, read once at startup and named by their content's hash
 * (`site.3f2a9c1b04de.css`), so a page links the exact version it was rendered
 * with and every asset can be cached for a year: no build step.
 */
export const hashedAssets = (dir: string): HashedAssets => {
  const byName = new Map<string, HashedAsset>()
  const byFile = new Map<string, HashedAsset>()
  for (const name of readdirSync(dir)) {
    const body = readFileSync(join(dir, name))
    const hash = createHash("sha256").update(body).digest("hex").slice(0, 12)
    const extension = extname(name)
    const file = `${name.slice(0, -extension.length)}.${hash}${extension}`
    const asset: HashedAsset = { url: `/assets/${file}`, body, contentType: TYPES[extension] ?? "application/octet-stream" }
    byName.set(name, asset)
    byFile.set(file, asset)
  }
  return {
    url: (name) => {
      const asset = byName.get(name)
      if (asset === undefined) throw new Error(`no asset named ${name}`)
      return asset.url
    },
    byFile: (file) => byFile.get(file)
  }
}

const Asset = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/css" }))

/** `GET /assets/:file`: a site's static files under their hashed names (add it to the site's group). */
export const hashedAssetEndpoint = (site: string) =>
  HttpApiEndpoint.get("asset", "/assets/:file")
    .setPath(Schema.Struct({ file: Schema.String.pipe(Schema.maxLength(100)) }))
    .addSuccess(Asset)
    .addError(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/plain" })), { status: 404 })
    .annotate(
      OpenApi.Description,
      `A style sheet, script or image of ${site} under its content-hashed name (such as site.3f2a9c1b04de.css), cached for a year (immutable); another name is 404.`
    )

/** The answer of `hashedAssetEndpoint` for `file`. */
export const hashedAssetResponse = (assets: HashedAssets, file: string): HttpServerResponse.HttpServerResponse => {
  const asset = assets.byFile(file)
  return asset === undefined
    ? HttpServerResponse.text("No such file.", { status: 404, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } })
    : HttpServerResponse.uint8Array(asset.body, {
      contentType: asset.contentType,
      headers: { "cache-control": IMMUTABLE, "x-content-type-options": "nosniff" }
    })
}
