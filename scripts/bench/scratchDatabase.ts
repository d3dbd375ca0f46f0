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

/** A fresh, empty database on the PostgreSQL server at `url`, and how to drop it (with any sessions left in it). */
export const createScratchDatabase = async (
  url: string,
  prefix: string
): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`
  await onServer(url, `CREATE DATABASE ${name}`)
  const scratch = new URL(url)
  scratch.pathname = `/${name}`
  return { url: scratch.toString(), drop: () => onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
