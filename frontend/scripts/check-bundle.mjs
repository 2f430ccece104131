// The client's initial JavaScript (the entry chunk and every chunk it imports statically; areas
// are lazy-loaded), gzipped, against the budget of DESIGN.md §8. Run after `vite build`.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

// DESIGN.md §8's budget: the check fails past it.
const BUDGET_KB = 250
const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'))
const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry)
const initial = new Set()
const visit = (key) => {
  if (initial.has(key)) return
  initial.add(key)
  for (const imported of manifest[key].imports ?? []) visit(imported)
}
entries.forEach(visit)
let bytes = 0
for (const key of initial) bytes += gzipSync(readFileSync(`dist/${manifest[key].file}`)).length
const kb = bytes / 1024
console.log(`Initial JavaScript: ${kb.toFixed(1)} KB gzipped in ${initial.size} files (budget ${BUDGET_KB} KB).`)
if (entries.length === 0 || kb > BUDGET_KB) {
  console.error(entries.length === 0 ? 'No entry chunk in the build manifest.' : 'Over the budget.')
  process.exit(1)
}
