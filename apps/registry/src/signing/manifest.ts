/**
 * The texts that are signed (docs/decisions.md, "Release signatures"). Each is JSON written with
 * its members in the order below, no white space, packages in ascending order of target; the signed bytes are
 * the UTF-8 bytes of that text, which is handed out as it is, so a client never rebuilds it.
 */

export interface ManifestPackage {
  readonly id: string
  readonly target: string
  readonly sha256: string
  readonly size: number
}

export const RELEASE_MANIFEST_TYPE = "silicon-apps.release-manifest.v1"
export const AUTHOR_MANIFEST_TYPE = "silicon-apps.author-manifest.v1"

const inTargetOrder = (packages: ReadonlyArray<ManifestPackage>) =>
  [...packages]
    .sort((a, b) => (a.target < b.target ? -1 : a.target > b.target ? 1 : 0))
    .map(({ id, sha256, size, target }) => ({ id, target, sha256, size }))

/** What the registry signs at resolve: the release, every package, and its freshness (sequence, issued_at, expires_at). */
export interface ReleaseManifest {
  readonly key_id: string
  readonly app_id: string
  readonly release_id: string
  readonly channel: string
  readonly version: string
  readonly packages: ReadonlyArray<ManifestPackage>
  /** The channel's state number: it grows with every release, promotion and withdrawal in the channel. */
  readonly sequence: number
  readonly issued_at: Date
  readonly expires_at: Date
}

export const releaseManifestText = (manifest: ReleaseManifest): string =>
  JSON.stringify({
    type: RELEASE_MANIFEST_TYPE,
    key_id: manifest.key_id,
    app_id: manifest.app_id,
    release_id: manifest.release_id,
    channel: manifest.channel,
    version: manifest.version,
    packages: inTargetOrder(manifest.packages),
    sequence: manifest.sequence,
    issued_at: manifest.issued_at.toISOString(),
    expires_at: manifest.expires_at.toISOString()
  })

/** What an author signs before the release exists: the app, the channel and version it is created for, and the bytes. */
export interface AuthorManifest {
  readonly app_id: string
  readonly channel: string
  readonly version: string
  readonly packages: ReadonlyArray<ManifestPackage>
}

export const authorManifestText = (manifest: AuthorManifest): string =>
  JSON.stringify({
    type: AUTHOR_MANIFEST_TYPE,
    app_id: manifest.app_id,
    channel: manifest.channel,
    version: manifest.version,
    packages: inTargetOrder(manifest.packages)
  })
