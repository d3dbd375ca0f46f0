import Pg from "pg"

const onServer = async (url: string, statement: string): Promise<void> => {
  const client = new Pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

const databaseAt = (url: string, name: string): string => {
  const database = new URL(url)
  database.pathname = `/${name}`
  return database.toString()
}

/** A fresh, empty database on the PostgreSQL server at `url`, and how to drop it (with any sessions left in it). */
export const createScratchDatabase = async (
  url: string,
  prefix: string
): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`
  await onServer(url, `CREATE DATABASE ${name}`)
  return { url: databaseAt(url, name), drop: () => onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** The database `name` on the server at `url`, dropped (with any sessions in it) and made anew, empty. */
export const freshDatabase = async (url: string, name: string): Promise<string> => {
  await onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await onServer(url, `CREATE DATABASE ${name}`)
  return databaseAt(url, name)
}
