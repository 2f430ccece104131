import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import Cookies from 'js-cookie'
import { afterEach, beforeEach } from 'vitest'
import { errorReports } from '../api/errorReports'
import i18n from '../i18n'

beforeEach(async () => {
  await i18n.changeLanguage('en')
})

afterEach(() => {
  cleanup()
  Cookies.remove('userToken', { path: '/spotv2' })
  localStorage.clear()
  while (errorReports.current().length > 0) errorReports.dismiss()
})
