import { useChartsLocalization } from '@mui/x-charts/hooks'
import { render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import i18n from '../../i18n'
import { ChartTexts } from './ChartTexts'

/** What a chart inside shows while its figures load, and when there are none. */
function Overlays() {
  const { localeText } = useChartsLocalization()
  return (
    <p>
      {localeText.loading} / {localeText.noData}
    </p>
  )
}

afterEach(() => i18n.changeLanguage('en'))

describe("the charts' own texts", () => {
  it.each([
    ['fr', 'Chargement… / Pas de données'],
    ['en', 'Loading data… / No data to display'],
  ])('follow the interface language (%s)', async (language, texts) => {
    await i18n.changeLanguage(language)
    render(
      <ChartTexts>
        <Overlays />
      </ChartTexts>,
    )
    expect(screen.getByText(texts)).toBeInTheDocument()
  })
})
