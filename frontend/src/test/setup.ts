import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import Cookies from 'js-cookie'
import { afterEach, beforeEach } from 'vitest'
import { errorReports } from '../api/errorReports'
import i18n from '../i18n'

// A loaded machine (CI runs the whole suite on 2 cores) may take more than the default second to
// render a form and its data: findBy and waitFor wait up to 5 s before they fail.
configure({ asyncUtilTimeout: 5000 })

beforeEach(async () => {
  await i18n.changeLanguage('en')
})

afterEach(() => {
  cleanup()
  Cookies.remove('userToken', { path: '/spotv2' })
  localStorage.clear()
  while (errorReports.current().length > 0) errorReports.dismiss()
})
