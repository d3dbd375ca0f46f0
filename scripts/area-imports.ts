// Counts imports between the areas of each service (apps/<service>/src/<area>/…) and finds cycles.
// `npx tsx scripts/area-imports.ts` prints the area graph and exits non-zero when two areas depend on each other.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"

export interface AreaGraph {
  readonly service: string
  /** area → the areas it imports, with how many import statements. */
  readonly edges: ReadonlyMap<string, ReadonlyMap<string, number>>
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") ? [path] : []
  })

/**
 * The area of a file: its first folder under src. A file directly in src (the composition root,
 * the service's settings) is a node of its own, so that composing every area is no cycle.
 */
const areaOf = (src: string, file: string): string => {
  const parts = relative(src, file).split(sep)
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, "")
}

/**
 * The composition root: the files directly in src that put the areas together (the whole contract,
 * the server, the layers, the migrations, the launchers). They import every area by design; areas
 * may import them (a handler names the service's contract), so their own imports are not edges.
 */
export const COMPOSITION_FILES: ReadonlySet<string> = new Set(["api", "server", "layers", "migrations", "main", "cli"])

export const areaGraph = (serviceDir: string): AreaGraph => {
  const src = join(serviceDir, "src")
  const edges = new Map<string, Map<string, number>>()
  for (const file of filesUnder(src)) {
    const from = areaOf(src, file)
    if (COMPOSITION_FILES.has(from)) continue
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1]!)
      if (!target.startsWith(src + sep)) continue
      const to = areaOf(src, target)
      if (to === from) continue
      const out = edges.get(from) ?? new Map<string, number>()
      out.set(to, (out.get(to) ?? 0) + 1)
      edges.set(from, out)
    }
  }
  return { service: serviceDir.split(sep).at(-1)!, edges }
}

/** Every cycle between areas, as strongly connected groups of two or more areas (Tarjan). */
export const cyclesOf = (graph: AreaGraph): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const groups: Array<Array<string>> = []
  let next = 0
  const visit = (area: string): void => {
    index.set(area, next)
    low.set(area, next++)
    stack.push(area)
    onStack.add(area)
    for (const to of graph.edges.get(area)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(area, Math.min(low.get(area)!, low.get(to)!))
      } else if (onStack.has(to)) {
        low.set(area, Math.min(low.get(area)!, index.get(to)!))
      }
    }
    if (low.get(area) === index.get(area)) {
      const group: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== area)
      if (group.length > 1) groups.push(group.sort())
    }
  }
  const areas = new Set([...graph.edges.keys(), ...[...graph.edges.values()].flatMap((out) => [...out.keys()])])
  for (const area of [...areas].sort()) if (!index.has(area)) visit(area)
  return groups
}

export const servicesIn = (root: string): Array<string> => {
  const apps = join(root, "apps")
  return readdirSync(apps).map((name) => join(apps, name)).filter((dir) => statSync(join(dir, "src")).isDirectory())
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let failed = false
  for (const service of servicesIn(join(import.meta.dirname, ".."))) {
    const graph = areaGraph(service)
    console.log(`${graph.service}:`)
    for (const [from, out] of [...graph.edges].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(`  ${from} → ${[...out].map(([to, n]) => `${to} (${n})`).join(", ")}`)
    }
    for (const cycle of cyclesOf(graph)) {
      failed = true
      console.log(`  CYCLE: ${cycle.join(" ⇄ ")}`)
    }
  }
  process.exitCode = failed ? 1 : 0
}
