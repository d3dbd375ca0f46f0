import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { DatabaseError, describeCause } from "../database-error.ts"

const restrict = (entry: string): void => {
  const stat = fs.lstatSync(entry)
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== 0o700) fs.chmodSync(entry, 0o700)
    for (const name of fs.readdirSync(entry)) restrict(path.join(entry, name))
  } else if (stat.isFile() && (stat.mode & 0o777) !== 0o600) {
    fs.chmodSync(entry, 0o600)
  }
}

/**
 * Makes a directory tree (when it exists) readable and writable by its owner only: directories 0700, files
 * 0600 (sockets and symbolic links are left alone). PGlite writes its files with mode 0666
 * less the umask, and a data directory may already exist with looser modes, so the modes are
 * set after the fact rather than trusted to the umask.
 */
export const restrictToOwner = (directory: string): Effect.Effect<void, DatabaseError> =>
  Effect.try({
    try: () => {
      if (fs.existsSync(directory)) restrict(directory)
    },
    catch: (cause) => new DatabaseError({ message: `could not restrict ${directory}: ${describeCause(cause)}`, cause })
  })
