import { readFileSync, writeFileSync } from "node:fs"
import { cpus, totalmem } from "node:os"

export const machine = (): string => {
  const cores = cpus()
  return `${cores.length} × ${cores[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`
}

/** Replaces the section between `<!-- name:start -->` and `<!-- name:end -->` in a Markdown file (adding it if absent). */
export const writeSection = (file: string, name: string, content: string): void => {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  let text = ""
  try {
    text = readFileSync(file, "utf8")
  } catch {
    text = "# Benchmarks\n\nEach section is written by its script under scripts/bench/; rerun the script to refresh it.\n"
  }
  const block = `${start}\n${content.trim()}\n${end}`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  text = from !== -1 && to !== -1 ? text.slice(0, from) + block + text.slice(to + end.length) : `${text.trimEnd()}\n\n${block}\n`
  writeFileSync(file, text)
}
