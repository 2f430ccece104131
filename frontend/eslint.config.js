import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const TEXT_IS_TRANSLATED = { selector: 'JSXText[value=/[A-Za-zÀ-ÿ]/]', message: 'User-visible text must be an i18n key.' }

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const CROSS_FEATURE = 'A feature may not import another feature: move what both need to components/, lib/ or api/.'
const FEATURE_TO_APP = 'A feature may not import app/, which composes the features: routes, navigation types and shared hooks are in lib/ or components/.'
const SHARED_TO_FEATURE = 'Shared code may not import a feature: it serves them all.'
const SHARED_TO_APP = 'Shared code may not import app/, which composes it with the features.'

/**
 * Which folder may import which (DESIGN §3), judged on the file an import resolves to, so at any
 * depth and through any path: a feature never imports another feature's files nor app/ (app/ brings
 * the features together; a feature's test may render the whole router); shared code (api/,
 * components/, i18n/, lib/) serves every feature and so depends on none, nor on app/.
 */
function importBoundaries({ files, ignores = [], featuresMayImportApp }) {
  const zones = [
    ...FEATURES.map((feature) => ({ target: `./features/${feature}`, from: './features', except: [`./${feature}`], message: CROSS_FEATURE })),
    ...(featuresMayImportApp ? [] : [{ target: './features', from: './app', message: FEATURE_TO_APP }]),
    { target: ['./api', './components', './i18n', './lib', './test'], from: './features', message: SHARED_TO_FEATURE },
    { target: ['./api', './components', './i18n', './lib'], from: './app', message: SHARED_TO_APP },
  ]
  return {
    files,
    ignores,
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: fileURLToPath(new URL('./src', import.meta.url)), zones }] },
  }
}

const TESTS = 'src/**/*.test.{ts,tsx}'
const ONE_LIST_OF_PAGE_RULES =
  "Permissions are tested in lib/routes.ts only, each page's rule as its server routes': a link or button asks mayOpen(user, address), or follows a `can` the server sent."

export default defineConfig([
  globalIgnores(['dist', 'src/api/schema.d.ts']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.strict, reactHooks.configs.flat.recommended],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.json'] })],
    },
    rules: {
      'no-restricted-syntax': ['error', TEXT_IS_TRANSLATED],
      // A cycle of imports makes the order modules load in matter, and ties together what should stand apart.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  importBoundaries({ files: ['src/**/*.{ts,tsx}'], ignores: [TESTS], featuresMayImportApp: false }),
  importBoundaries({ files: [TESTS], featuresMayImportApp: true }),
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: [TESTS, 'src/lib/routes.ts', 'src/lib/permissions.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/lib/permissions', './permissions'], importNames: ['holds'], message: ONE_LIST_OF_PAGE_RULES }] }] },
  },
])
