import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { extname, join } from "node:path"

const TYPES: Readonly<Record<string, string>> = {
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml"
}

export interface Asset {
  readonly url: string
  readonly body: Uint8Array
  readonly contentType: string
}

/**
 * The site's static files, read once at startup and named by their content's
 * hash (`site.3f2a9c1b04de.css`), so a page links the exact version it was
 * rendered with and every asset can be cached for a year: no build step.
 */
const load = (dir: string) => {
  const byName = new Map<string, Asset>()
  const byFile = new Map<string, Asset>()
  for (const name of readdirSync(dir)) {
    const body = readFileSync(join(dir, name))
    const hash = createHash("sha256").update(body).digest("hex").slice(0, 12)
    const extension = extname(name)
    const file = `${name.slice(0, -extension.length)}.${hash}${extension}`
    const asset: Asset = { url: `/assets/${file}`, body, contentType: TYPES[extension] ?? "application/octet-stream" }
    byName.set(name, asset)
    byFile.set(file, asset)
  }
  return { byName, byFile }
}

const ASSETS = load(join(import.meta.dirname, "assets"))

/** The hashed address of a file of `assets/`. */
export const assetUrl = (name: string): string => {
  const asset = ASSETS.byName.get(name)
  if (asset === undefined) throw new Error(`no asset named ${name}`)
  return asset.url
}

/** The asset a hashed file name stands for (`site.3f2a9c1b04de.css`), if any. */
export const assetByFile = (file: string): Asset | undefined => ASSETS.byFile.get(file)

export const IMMUTABLE = "public, max-age=31536000, immutable"
