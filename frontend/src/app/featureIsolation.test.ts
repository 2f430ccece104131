import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The lint configuration itself (eslint.config.js), run from frontend/ as `npm run lint` is, on
// snippets placed in the tree.
const eslint = new ESLint()

async function crossFeatureErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath })
  return result.messages.filter((message) => message.severity === 2 && message.message.includes('A feature may not import another feature')).length
}

describe('the lint rule that keeps features apart', () => {
  it.each([
    ['a sibling feature, relatively', 'src/features/subjects/Probe.ts', "import { x } from '../mapping/api'"],
    ['a feature through the features folder', 'src/features/subjects/Probe.ts', "import { x } from '../../features/mapping/api'"],
    ['a type of another feature', 'src/features/subjects/Probe.ts', "import type { x } from '../mapping/api'"],
    ['another feature from a sub-folder', 'src/features/subjects/parts/Probe.ts', "import { x } from '../../mapping/api'"],
    ['a re-export of another feature', 'src/features/users/Probe.ts', "export { x } from '../permissions/api'"],
    ['a lazy import of another feature', 'src/features/subjects/Probe.tsx', "export const load = () => import('../mapping/routes')"],
  ])('refuses %s', async (_case, filePath, code) => {
    expect(await crossFeatureErrors(filePath, `${code}\n`)).toBe(1)
  })

  it.each([
    ['its own files', 'src/features/subjects/Probe.ts', "import { x } from './api'"],
    ['its own files from a sub-folder', 'src/features/subjects/parts/Probe.ts', "import { x } from '../api'"],
    ['shared code', 'src/features/subjects/Probe.ts', "import { x } from '../../lib/routeParams'"],
    ['the paths of every area', 'src/features/subjects/Probe.ts', "import { x } from '../../app/paths'"],
    ['features, for the router', 'src/app/Probe.ts', "import { x } from '../features/mapping/routes'"],
  ])('allows %s', async (_case, filePath, code) => {
    expect(await crossFeatureErrors(filePath, `${code}\n`)).toBe(0)
  })

  it.each([
    ['components', 'src/components/Probe.tsx'],
    ['lib', 'src/lib/querylang/Probe.ts'],
    ['api', 'src/api/Probe.ts'],
  ])('keeps %s from importing any feature', async (_layer, filePath) => {
    const [result] = await eslint.lintText("import { x } from '../../features/mapping/api'\nexport const y = x\n", { filePath })
    expect(result.messages.map((message) => message.message).join('\n')).toContain('Shared code may not import a feature')
  })

  it('still asks for translated text in features', async () => {
    const [result] = await eslint.lintText('export const Probe = () => <p>Hello</p>\n', { filePath: 'src/features/subjects/Probe.tsx' })
    expect(result.messages.map((message) => message.message)).toContain('User-visible text must be an i18n key.')
  })
})
