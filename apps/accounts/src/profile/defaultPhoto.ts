import { sha256Hex } from "@platform/crypto"

/**
 * Background colours of default pictures: each keeps the white figure above 4.5:1, so the picture
 * reads the same on any page.
 */
const BACKGROUNDS = [
  "#1565c0", "#2e7d32", "#6a1b9a", "#ad1457", "#c62828", "#00695c",
  "#4527a0", "#283593", "#01579b", "#33691e", "#bf360c", "#4e342e", "#37474f", "#880e4f"
] as const

export interface DefaultPhoto {
  readonly svg: string
  /** A digest of the bytes, for the ETag: the picture of a uuid changes only with this drawing. */
  readonly digest: string
}

/**
 * The default picture of the account `uuid`: a figure on a colour chosen by the uuid's digest. It is
 * drawn from the uuid alone (no name, no lookup), so it says nothing about the account, not even that
 * one exists, and the same uuid always gets the same picture.
 */
export const defaultPhoto = (uuid: string): DefaultPhoto => {
  const background = BACKGROUNDS[Number.parseInt(sha256Hex(uuid).slice(0, 8), 16) % BACKGROUNDS.length]!
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">` +
    `<rect width="256" height="256" fill="${background}"/>` +
    `<circle cx="128" cy="100" r="44" fill="#ffffff"/>` +
    `<path d="M48 224c0-44 36-76 80-76s80 32 80 76z" fill="#ffffff"/>` +
    `</svg>`
  return { svg, digest: sha256Hex(svg).slice(0, 32) }
}
