import react from '@vitejs/plugin-react'
import { build, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { configDefaults, defineConfig } from 'vitest/config'

/** Test files about a module's own state (what it has read or remembered), which need it fresh. */
const OWN_MODULES = ['src/i18n/**/*.test.ts']

/**
 * The SCORM runtimes (src/lms-runtime): each a classic script of its own, dist/lms-runtime/scorm12.js and
 * scorm2004.js, which the server writes into the frame around a launched SCO (lms/scorm/player.py). Not
 * modules: they run before the content's scripts, in documents of another origin.
 */
function lmsRuntime(): Plugin {
  return {
    name: 'spot-lms-runtime',
    apply: 'build',
    async closeBundle() {
      for (const name of ['scorm12', 'scorm2004']) {
        await build({
          configFile: false,
          logLevel: 'warn',
          build: {
            outDir: 'dist/lms-runtime',
            emptyOutDir: false,
            copyPublicDir: false,
            lib: { entry: `src/lms-runtime/${name}.ts`, formats: ['iife'], name: `spot_${name}`, fileName: () => `${name}.js` },
          },
        })
      }
    },
  }
}

export default defineConfig({
  base: '/spotv2/',
  plugins: [
    react(),
    lmsRuntime(),
    // The installable app (docs/installable-app.md): a manifest, and a service worker that keeps the
    // application's own files (the shell, its chunks, styles, fonts, icons) so that it opens at once and
    // offline. Nothing of the server's API is kept: every /backend answer goes to the network.
    VitePWA({
      injectRegister: 'script-defer',
      registerType: 'autoUpdate',
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['icons/apple-touch-icon.png'],
      manifest: {
        id: '/spotv2/',
        name: 'Spot',
        short_name: 'Spot',
        description: 'Le savoir-faire des postes de travail — workplace know-how',
        lang: 'fr',
        start_url: '/spotv2/dashboards/mine',
        scope: '/spotv2/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#0074C8',
        background_color: '#FFFFFF',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,woff2,png,svg}'],
        globIgnores: ['lms-runtime/**'],
        // The largest chunks (the mind map's, the PDF's) are kept too.
        maximumFileSizeToCacheInBytes: 6_000_000,
        navigateFallback: '/spotv2/index.html',
        navigateFallbackDenylist: [/^\/backend\//, /^\/spotv2\/lms-runtime\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        runtimeCaching: [],
      },
    }),
  ],
  server: {
    proxy: { '/backend': 'http://127.0.0.1:8000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true, // read by scripts/check-bundle.mjs
  },
  test: {
    environment: 'jsdom',
    // Under the base path, so that the session cookie (path /spotv2) is visible as in the browser.
    environmentOptions: { jsdom: { url: 'http://localhost:3000/spotv2/' } },
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Longer than any wait of a test (src/test/setup.ts): a slow machine makes a test slow, not failed.
    testTimeout: 300_000,
    unstubGlobals: true,
    // What a passing test wrote to the console (jsdom's canvas notice, the router's hydration hint) is
    // left out; a failing test's is shown with it.
    silent: 'passed-only',
    // Vitest keeps one core free by default, which on CI's two cores means one worker.
    maxWorkers: 2,
    projects: [
      // Most files share their worker's modules (React, MUI, the app's): read once, not once per file.
      // src/test/setup.ts puts back, before each file, the module state a file may change.
      { extends: true, test: { name: 'shared', isolate: false, exclude: [...configDefaults.exclude, ...OWN_MODULES] } },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES } },
    ],
  },
})
