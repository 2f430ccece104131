import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import Cookies from 'js-cookie'
import { afterEach, beforeEach } from 'vitest'
import { errorReports } from '../api/errorReports'
import i18n, { LANGUAGES } from '../i18n'
import { catalogue } from './catalogues'

// A loaded machine (CI runs the whole suite on 2 cores) may take more than the default second to
// render a form and its data: findBy and waitFor wait up to 5 s before they fail.
configure({ asyncUtilTimeout: 5000 })

// Every text of every area, in both languages: components are tested outside their area's routes,
// which read the area's texts in the application (src/i18n/areas.test.ts checks that they do).
for (const language of LANGUAGES) i18n.addResourceBundle(language, 'translation', catalogue(language), true, true)

beforeEach(async () => {
  await i18n.changeLanguage('en')
})

afterEach(() => {
  cleanup()
  Cookies.remove('userToken', { path: '/spotv2' })
  localStorage.clear()
  while (errorReports.current().length > 0) errorReports.dismiss()
})
