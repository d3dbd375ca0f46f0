/**
 * How deep arrays and objects may nest in a JSON body. No request of the
 * spec nests past 5; the limit refuses a hostile body before anything
 * recursive (schema decoding, canonical hashing) walks it.
 */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

/** Whether `[` and `{` outside strings nest deeper than `limit`, by one pass over the text without recursion. */
export const jsonNestsDeeperThan = (text: string, limit: number = MAX_JSON_DEPTH): boolean => {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) {
      inString = true
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limit) return true
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}
