import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"

/**
 * A development key kept in a file readable by its owner only: read when it exists, else created
 * with 32 random bytes (base64). Production passes its key in the environment instead.
 */
export const developmentKeyFile = (path: string): string => {
  if (existsSync(path)) return readFileSync(path, "utf8").trim()
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const key = randomBytes(32).toString("base64")
  writeFileSync(path, `${key}\n`, { mode: 0o600, flag: "wx" })
  return key
}
