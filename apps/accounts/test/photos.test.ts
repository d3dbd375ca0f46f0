import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import sharp from "sharp"
import { AccountsTest, AccountsUnderTest } from "./support/AccountsUnderTest.ts"
import { signedInCarbon } from "./support/contacts.ts"
import { appBasic, feedOf, memberApp } from "./support/events.ts"
import { fetchAnswer } from "./support/http.ts"
import { createSilicon } from "./support/silicons.ts"

const image = (format: "png" | "jpeg" | "webp" | "gif", width = 16, height = 16) =>
  Effect.promise(() => sharp({ create: { width, height, channels: 3, background: "#3366cc" } }).toFormat(format).toBuffer())

const upload = (token: string, contentType: string, body: Uint8Array) =>
  Effect.flatMap(AccountsUnderTest, ({ url }) =>
    Effect.promise(() =>
      fetchAnswer(`${url}/v1/me/photo`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": contentType },
        body
      })
    ))

/** The served photo's bytes and headers. */
const served = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(async () => {
    const response = await fetch(url, { headers })
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
  })

layer(AccountsTest(), { excludeTestServices: true })("POST and DELETE /v1/me/photo", (it) => {
  it.effect("each format is accepted, stored re-encoded and served from its own URL with caching headers", () =>
    Effect.gen(function*() {
      const { accessToken } = yield* signedInCarbon()
      const urls = new Set<string>()
      for (const [format, type] of [["png", "image/png"], ["jpeg", "image/jpeg"], ["webp", "image/webp"], ["gif", "image/gif"]] as const) {
        const answer = yield* upload(accessToken, type, yield* image(format))
        expect(answer.status).toBe(200)
        const pfpUrl = answer.body.pfp_url as string
        expect(pfpUrl).toMatch(/\/v1\/photos\/pho_[A-Za-z0-9_-]+$/)
        urls.add(pfpUrl)
        const photo = yield* served(pfpUrl)
        expect(photo.status).toBe(200)
        expect(photo.headers.get("content-type")).toBe(type)
        expect(photo.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
        const etag = photo.headers.get("etag")!
        expect(etag).toMatch(/^"pho_/)
        expect((yield* Effect.promise(() => sharp(photo.bytes).metadata())).format).toBe(format)
        const revalidated = yield* served(pfpUrl, { "if-none-match": etag })
        expect(revalidated.status).toBe(304)
        expect(revalidated.bytes.length).toBe(0)
      }
      expect(urls.size).toBe(4)
      // A replaced photo's URL names nothing any more.
      const [firstUrl] = urls
      const gone = yield* Effect.promise(() => fetchAnswer(firstUrl!))
      expect(gone.status).toBe(404)
      expect(gone.body.error.code).toBe("photo_not_found")
    }))

  it.effect("the format comes from the bytes: a PNG sent as image/jpeg is 415 naming image/png; non-images are refused", () =>
    Effect.gen(function*() {
      const { accessToken } = yield* signedInCarbon()
      const wrong = yield* upload(accessToken, "image/jpeg", yield* image("png"))
      expect(wrong.status).toBe(415)
      expect(wrong.body.error).toMatchObject({
        code: "unsupported_media_type",
        details: { received: "image/jpeg", expected: ["image/png"] }
      })
      const text = yield* upload(accessToken, "image/png", new TextEncoder().encode("not an image at all"))
      expect(text.status).toBe(422)
      expect(text.body.error.code).toBe("invalid_image")
      const tiff = yield* Effect.promise(() =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } }).tiff().toBuffer())
      const otherFormat = yield* upload(accessToken, "image/png", tiff)
      expect(otherFormat.status).toBe(415)
      expect(otherFormat.body.error.details.expected).toEqual(["image/png", "image/jpeg", "image/webp", "image/gif"])
      const svg = yield* upload(accessToken, "image/svg+xml", new TextEncoder().encode("<svg/>"))
      expect(svg.status).toBe(415)
      const me = yield* Effect.flatMap(AccountsUnderTest, ({ url }) =>
        Effect.promise(() => fetchAnswer(`${url}/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } })))
      expect(me.body.pfp_url).toMatch(/\/v1\/photos\/default\/[A-Za-z0-9]+$/)
    }))

  it.effect("9000 px on a side is 422 image_too_large; 2 MB + 1 byte is 413 payload_too_large", () =>
    Effect.gen(function*() {
      const { accessToken } = yield* signedInCarbon()
      const wide = yield* upload(accessToken, "image/png", yield* image("png", 9000, 8))
      expect(wide.status).toBe(422)
      expect(wide.body.error).toMatchObject({
        code: "image_too_large",
        details: { width: 9000, height: 8, max_side_px: 8192, max_pixels: 50_000_000 }
      })
      // 8000 × 7000 is within each side but 56 megapixels.
      const many = yield* upload(accessToken, "image/png", yield* image("png", 8000, 7000))
      expect(many.body.error.code).toBe("image_too_large")
      const big = Buffer.concat([yield* image("png"), Buffer.alloc(2_097_152 + 1)]).subarray(0, 2_097_152 + 1)
      const tooLarge = yield* upload(accessToken, "image/png", big)
      expect(tooLarge.status).toBe(413)
      expect(tooLarge.body.error).toMatchObject({ code: "payload_too_large", details: { limit_bytes: 2_097_152 } })
    }))

  it.effect("metadata is stripped: EXIF written into a JPEG is not in the served bytes", () =>
    Effect.gen(function*() {
      const { accessToken } = yield* signedInCarbon()
      const marker = "SecretCamera-Location-42"
      const tagged = yield* Effect.promise(() =>
        sharp({ create: { width: 32, height: 32, channels: 3, background: "#884422" } })
          .withExif({ IFD0: { Copyright: marker, ImageDescription: marker } })
          .jpeg()
          .toBuffer())
      expect((yield* Effect.promise(() => sharp(tagged).metadata())).exif).toBeDefined()
      expect(tagged.includes(marker)).toBe(true)
      const answer = yield* upload(accessToken, "image/jpeg", tagged)
      expect(answer.status).toBe(200)
      const photo = yield* served(answer.body.pfp_url)
      const metadata = yield* Effect.promise(() => sharp(photo.bytes).metadata())
      expect(metadata.exif).toBeUndefined()
      expect(metadata.xmp).toBeUndefined()
      expect(photo.bytes.includes(marker)).toBe(false)
      expect(photo.bytes.includes("Exif")).toBe(false)
    }))

  it.effect("pfp_url and account.updated follow an upload and a removal; the 21st upload in an hour is 429", () =>
    Effect.gen(function*() {
      const { accessToken, api, carbon } = yield* signedInCarbon()
      const app = yield* memberApp(carbon.uuid)
      const uploaded = yield* upload(accessToken, "image/png", yield* image("png"))
      const removed = yield* api.del("/v1/me/photo")
      expect(removed.status).toBe(200)
      const { url } = yield* AccountsUnderTest
      expect(removed.body.pfp_url).toBe(`${url}/v1/photos/default/${carbon.uuid}`)
      expect((yield* served(uploaded.body.pfp_url)).status).toBe(404)
      const updates = (yield* feedOf(carbon.uuid, "account.updated")).filter((row) => row.receiver === `app:${app.appId}`)
      expect(updates.map((row) => row.body.data.changed)).toEqual([["pfp_url"], ["pfp_url"]])
      expect(updates[0]!.body.data.account.pfp_url).toBe(uploaded.body.pfp_url)
      expect(updates[1]!.body.data.account.pfp_url).toBe(removed.body.pfp_url)

      for (let n = 2; n <= 20; n++) expect((yield* upload(accessToken, "image/png", yield* image("png"))).status).toBe(200)
      const limited = yield* upload(accessToken, "image/png", yield* image("png"))
      expect(limited.status).toBe(429)
      expect(limited.body.error.code).toBe("rate_limited")
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    }))

  it.effect("an account without a photo points at its default picture: an SVG drawn from the uuid, with caching headers", () =>
    Effect.gen(function*() {
      const { url } = yield* AccountsUnderTest
      const { accessToken, api, carbon } = yield* signedInCarbon()
      const defaultOf = (uuid: string) => `${url}/v1/photos/default/${uuid}`
      // The own view, an app's view and a custodian's view of a Silicon (with its custodian's summary) name it.
      expect((yield* api.get("/v1/me")).body.pfp_url).toBe(defaultOf(carbon.uuid))
      const app = yield* memberApp(carbon.uuid)
      const looked = yield* Effect.promise(() => fetchAnswer(`${url}/v1/accounts/${carbon.uuid}`, { headers: appBasic(app) }))
      expect(looked.body.pfp_url).toBe(defaultOf(carbon.uuid))
      const { silicon } = yield* createSilicon({ custodian: carbon })
      const custodianView = yield* api.get(`/v1/me/silicons/${silicon.uuid}`)
      expect(custodianView.body).toMatchObject({ pfp_url: defaultOf(silicon.uuid), custodian: { pfp_url: defaultOf(carbon.uuid) } })

      const picture = yield* served(defaultOf(carbon.uuid))
      expect(picture.status).toBe(200)
      expect(picture.headers.get("content-type")).toBe("image/svg+xml")
      expect(picture.headers.get("cache-control")).toBe("public, max-age=86400")
      expect(picture.headers.get("cross-origin-resource-policy")).toBe("cross-origin")
      expect(picture.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox")
      expect(yield* Effect.promise(() => sharp(picture.bytes).metadata())).toMatchObject({ format: "svg", width: 256, height: 256 })
      const again = yield* served(defaultOf(carbon.uuid))
      expect(again.bytes.equals(picture.bytes)).toBe(true)
      const etag = picture.headers.get("etag")!
      expect((yield* served(defaultOf(carbon.uuid), { "if-none-match": etag })).status).toBe(304)
      // Drawn from the uuid alone: any uuid-shaped value has one, so it tells nothing about which accounts exist.
      expect((yield* served(defaultOf("zZ9q"))).status).toBe(200)
      const notUuid = yield* Effect.promise(() => fetchAnswer(defaultOf("not-a-uuid")))
      expect([notUuid.status, notUuid.body.error.code]).toEqual([404, "photo_not_found"])

      // After an upload and a removal, the account points at its default picture again.
      expect((yield* upload(accessToken, "image/png", yield* image("png"))).body.pfp_url).not.toBe(defaultOf(carbon.uuid))
      expect((yield* api.del("/v1/me/photo")).body.pfp_url).toBe(defaultOf(carbon.uuid))
    }))
})
