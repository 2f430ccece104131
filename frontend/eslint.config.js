import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const TEXT_IS_TRANSLATED = { selector: 'JSXText[value=/[A-Za-zÀ-ÿ]/]', message: 'User-visible text must be an i18n key.' }

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
/** How deep below its feature's folder a file may sit and still be checked. */
const FOLDER_DEPTHS = [0, 1, 2, 3]
const CROSS_FEATURE = 'A feature may not import another feature: move what both need to components/, lib/, api/ or app/paths.ts.'

/**
 * Import texts that leave feature `feature` for another one, from a file `depth` folders below the
 * feature's own: '../<other>…' climbed once more than the depth, or any path through 'features/<other>'.
 */
function otherFeatureImports(feature, depth) {
  const name = feature.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const notThisOne = `(?!${name}(\\/|$))`
  return [`^(\\.\\.\\/){${depth + 1}}${notThisOne}(?!\\.\\.(\\/|$))[^\\/]+`, `(^|\\/)features\\/${notThisOne}[^\\/]+`]
}

/**
 * A feature never imports another feature's files (DESIGN §3): what two areas share goes to
 * components/, lib/, api/ or app/paths.ts. Only the router (src/app) brings features together.
 * The rules match import texts, so a relative import is judged from the folder its file sits in.
 */
const featureIsolation = FEATURES.flatMap((feature) =>
  FOLDER_DEPTHS.map((depth) => {
    const forbidden = otherFeatureImports(feature, depth)
    return {
      files: [`src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': ['error', { patterns: forbidden.map((regex) => ({ regex, message: CROSS_FEATURE })) }],
        'no-restricted-syntax': [
          'error',
          TEXT_IS_TRANSLATED,
          ...forbidden.map((regex) => ({ selector: `ImportExpression[source.value=/${regex}/]`, message: CROSS_FEATURE })),
        ],
      },
    }
  }),
)

/** Shared code serves every feature and so depends on none (bulletproof-react's one-way imports). */
const sharedCodeIsolation = {
  files: ['src/{api,components,i18n,lib,test}/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ regex: '(^|\\/)features\\/', message: 'Shared code may not import a feature: it serves them all.' }] },
    ],
  },
}

export default defineConfig([
  globalIgnores(['dist', 'src/api/schema.d.ts']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.strict, reactHooks.configs.flat.recommended],
    rules: {
      'no-restricted-syntax': ['error', TEXT_IS_TRANSLATED],
    },
  },
  ...featureIsolation,
  sharedCodeIsolation,
])
