/** Where an account without a photo of its own points: a picture drawn from its uuid alone (profile/defaultPhoto.ts). */
export const DEFAULT_PHOTOS_PATH = "/v1/photos/default"

/**
 * The account's `pfp_url`, which spec 1 types as a URL: its uploaded photo (or the URL given at a
 * Silicon's creation), else its default picture at a stable URL on our own origin.
 */
export const pfpUrlOf = (publicUrl: string, account: { readonly uuid: string; readonly pfp_url: string | null }): string =>
  account.pfp_url ?? `${publicUrl}${DEFAULT_PHOTOS_PATH}/${account.uuid}`

/** The description every view gives `pfp_url`. */
export const PFP_URL_DESCRIPTION = "The account's photo; an account without one has a generated default picture here"
