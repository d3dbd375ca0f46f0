/** The media type of a Content-Type header, lower-cased, or undefined when the header is not a valid media type. */
export const mediaTypeOf = (header: string): string | undefined => {
  const mediaType = header.split(";", 1)[0]!.trim().toLowerCase()
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mediaType) ? mediaType : undefined
}
