import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The lint configuration itself (eslint.config.js), run from frontend/ as `npm run lint` is, on
// snippets placed in the tree.
const eslint = new ESLint()

async function crossFeatureErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath })
  return result.messages.filter((message) => message.severity === 2 && message.message.includes('A feature may not import another feature')).length
}

describe('the lint rules that keep features apart', () => {
  it.each([
    ['a sibling feature, relatively', 'src/features/subjects/Probe.ts', "import { x } from '../mapping/api'"],
    ['a feature through the features folder', 'src/features/subjects/Probe.ts', "import { x } from '../../features/mapping/api'"],
    ['a type of another feature', 'src/features/subjects/Probe.ts', "import type { x } from '../mapping/api'"],
    ['another feature from a sub-folder', 'src/features/subjects/parts/Probe.ts', "import { x } from '../../mapping/api'"],
    ['another feature from any depth', 'src/features/subjects/a/b/c/d/Probe.ts', "import { x } from '../../../../../mapping/api'"],
    ['a re-export of another feature', 'src/features/users/Probe.ts', "export { x } from '../permissions/api'"],
    ['a lazy import of another feature', 'src/features/subjects/Probe.tsx', "export const load = () => import('../mapping/routes')"],
  ])('refuses %s', async (_case, filePath, code) => {
    expect(await crossFeatureErrors(filePath, `${code}\n`)).toBe(1)
  })

  it.each([
    ['its own files', 'src/features/subjects/Probe.ts', "import { x } from './api'"],
    ['its own files from a sub-folder', 'src/features/subjects/parts/Probe.ts', "import { x } from '../api'"],
    ['shared code', 'src/features/subjects/Probe.ts', "import { x } from '../../lib/routeParams'"],
    ['the paths of every area', 'src/features/subjects/Probe.ts', "import { x } from '../../lib/paths'"],
    ['features, for the router', 'src/app/Probe.ts', "import { x } from '../features/mapping/routes'"],
  ])('allows %s', async (_case, filePath, code) => {
    expect(await crossFeatureErrors(filePath, `${code}\n`)).toBe(0)
  })

  it.each([
    ['components', 'src/components/Probe.tsx', '../features/mapping/api'],
    ['lib', 'src/lib/querylang/Probe.ts', '../../features/mapping/api'],
    ['api', 'src/api/Probe.ts', '../features/mapping/api'],
  ])('keeps %s from importing any feature', async (_layer, filePath, source) => {
    const [result] = await eslint.lintText(`import { x } from '${source}'\nexport const y = x\n`, { filePath })
    expect(result.messages.map((message) => message.message).join('\n')).toContain('Shared code may not import a feature')
  })

  it.each([
    ['a feature', 'src/features/subjects/parts/Probe.ts', "import { x } from '../../../app/router'"],
    ['shared code', 'src/components/Probe.ts', "import { x } from '../app/router'"],
  ])('keeps %s from importing app/, which composes the features', async (_layer, filePath, code) => {
    const [result] = await eslint.lintText(`${code}\nexport const y = x\n`, { filePath })
    expect(result.messages.map((message) => message.message).join('\n')).toMatch(/may not import app\//)
  })

  it("lets a feature's test render the whole router", async () => {
    const [result] = await eslint.lintText("import { routes } from '../../app/router'\nexport const y = routes\n", { filePath: 'src/features/subjects/Probe.test.ts' })
    expect(result.messages).toEqual([])
  })

  it('refuses an import cycle', async () => {
    // lib/routes.ts imports lib/permissions.ts: permissions importing routes back closes a cycle.
    const [result] = await eslint.lintText("import { mayOpen } from './routes'\nexport const y = mayOpen\n", { filePath: 'src/lib/permissions.ts' })
    expect(result.messages.map((message) => message.ruleId)).toContain('import-x/no-cycle')
  })

  it('still asks for translated text in features', async () => {
    const [result] = await eslint.lintText('export const Probe = () => <p>Hello</p>\n', { filePath: 'src/features/subjects/Probe.tsx' })
    expect(result.messages.map((message) => message.message)).toContain('User-visible text must be an i18n key.')
  })
})
