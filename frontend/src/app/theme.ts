import { enUS as materialEnglish, frFR as materialFrench } from '@mui/material/locale'
import { createTheme, type Theme } from '@mui/material/styles'
import type {} from '@mui/x-date-pickers/themeAugmentation'

declare module '@mui/material/styles' {
  interface Palette {
    accent: Palette['primary']
  }
  interface PaletteOptions {
    accent?: PaletteOptions['primary']
  }
  interface PaletteColor {
    /** The colour as text and small elements on a light surface (white or the grey page), with a contrast of 4.5:1 at least. */
    text: string
  }
  interface SimplePaletteColorOptions {
    text?: string
  }
}

declare module '@mui/material/AppBar' {
  interface AppBarPropsColorOverrides {
    accent: true
  }
}

const BRAND_COLOURS = ['primary', 'secondary', 'error', 'info', 'success', 'warning'] as const
type BrandColour = (typeof BRAND_COLOURS)[number]
/** The colours whose own shade is too light under their (white) contrast text: they carry it on their text shade. */
const TOO_LIGHT_FOR_WHITE = ['error', 'info', 'success'] as const satisfies readonly BrandColour[]

const shade = (colour: BrandColour) => (theme: Theme) => theme.palette[colour].text
const surface = (colour: BrandColour) => (theme: Theme) =>
  (TOO_LIGHT_FOR_WHITE as readonly BrandColour[]).includes(colour) ? theme.palette[colour].text : theme.palette[colour].main

/**
 * The specification's colours (part 1, §9) are the brand: bars, borders, icons, large areas. Text and
 * small elements drawn in them use `text`, a darker shade of the same hue that reads at 4.5:1 on white
 * and on the grey page (the brand blue reads at 4.47:1 there, its orange 2.5:1, its green carries white
 * at 3.7:1).
 */
const theme = createTheme({
  palette: {
    primary: { main: '#0074C8', text: '#0063AA' },
    secondary: { main: '#666666', text: '#5C5C5C' },
    accent: { main: '#007193', contrastText: '#FFFFFF', text: '#006684' },
    error: { main: '#FC724C', text: '#C22C03', dark: '#A12503', contrastText: '#FFFFFF' },
    info: { main: '#00ACDF', text: '#007091', dark: '#005670', contrastText: '#FFFFFF' },
    success: { main: '#009933', text: '#007A29', dark: '#005C1F', contrastText: '#FFFFFF' },
    warning: { main: '#FFC107', text: '#836200' },
    background: { default: '#F4F6F8' },
  },
  shape: { borderRadius: 6 },
  typography: {
    fontFamily: '"Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    // Who asks their system for less motion gets none: menus, dialogs and tooltips appear at once.
    MuiCssBaseline: {
      styleOverrides: {
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': { transitionDuration: '0s !important', animationDuration: '0s !important', scrollBehavior: 'auto !important' },
        },
      },
    },
    MuiAppBar: { defaultProps: { elevation: 1 } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: {
          variants: BRAND_COLOURS.map((colour) => ({
            props: { color: colour },
            style: ({ theme }: { theme: Theme }) => ({
              '--variant-textColor': shade(colour)(theme),
              '--variant-outlinedColor': shade(colour)(theme),
              '--variant-containedBg': surface(colour)(theme),
              '&:hover': { '--variant-containedBg': theme.palette[colour].dark },
            }),
          })),
        },
      },
    },
    MuiChip: {
      styleOverrides: {
        root: {
          variants: BRAND_COLOURS.flatMap((colour) => [
            {
              props: { color: colour, variant: 'filled' },
              style: ({ theme }: { theme: Theme }) => ({
                backgroundColor: surface(colour)(theme),
                color: theme.palette[colour].contrastText,
              }),
            },
            { props: { color: colour, variant: 'outlined' }, style: ({ theme }: { theme: Theme }) => ({ color: shade(colour)(theme) }) },
          ]),
        },
      },
    },
    MuiAlert: {
      styleOverrides: {
        root: {
          variants: TOO_LIGHT_FOR_WHITE.map((colour) => ({
            props: { severity: colour, variant: 'filled' },
            style: ({ theme }: { theme: Theme }) => ({ backgroundColor: surface(colour)(theme), color: theme.palette[colour].contrastText }),
          })),
        },
      },
    },
    MuiTypography: {
      styleOverrides: {
        root: {
          variants: BRAND_COLOURS.map((colour) => ({
            props: { color: colour },
            style: ({ theme }: { theme: Theme }) => ({ color: shade(colour)(theme) }),
          })),
        },
      },
    },
    MuiLink: {
      styleOverrides: {
        root: {
          variants: BRAND_COLOURS.map((colour) => ({
            props: { color: colour },
            style: ({ theme }: { theme: Theme }) => ({ color: shade(colour)(theme) }),
          })),
        },
      },
    },
    MuiTab: {
      styleOverrides: {
        root: ({ theme }) => ({
          '&.MuiTab-textColorPrimary.Mui-selected': { color: theme.palette.primary.text },
          '&.MuiTab-textColorSecondary.Mui-selected': { color: theme.palette.secondary.text },
        }),
      },
    },
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({
          '&.Mui-error': { color: theme.palette.error.text },
          // What a disabled field's helper says (why it is locked) is read like any other help: MUI's
          // disabled grey reads at 2.7:1.
          '&.Mui-disabled': { color: theme.palette.text.secondary },
        }),
      },
    },
    MuiFormLabel: {
      styleOverrides: {
        root: ({ theme }) => ({
          '&.Mui-focused': { color: theme.palette.primary.text },
          '&.Mui-error': { color: theme.palette.error.text },
        }),
      },
    },
    // A read-only field (shown, not to be typed in) does not look like one waiting for input: shaded,
    // its outline dashed.
    MuiOutlinedInput: {
      styleOverrides: {
        root: ({ theme }) => ({
          '&.MuiInputBase-readOnly': { backgroundColor: theme.palette.action.hover, '& .MuiOutlinedInput-notchedOutline': { borderStyle: 'dashed' } },
        }),
      },
    },
    MuiPickersOutlinedInput: {
      styleOverrides: {
        root: ({ theme }) => ({
          '&.MuiPickersInputBase-readOnly': {
            backgroundColor: theme.palette.action.hover,
            '& .MuiPickersOutlinedInput-notchedOutline': { borderStyle: 'dashed' },
          },
        }),
      },
    },
    MuiTableCell: { styleOverrides: { head: { fontWeight: 600 } } },
    // An unpressed toggle button's text in MUI's grey (action.active) reads at 4.47:1 on its hover
    // shade: the secondary text's grey instead.
    MuiToggleButton: {
      styleOverrides: {
        root: ({ theme }) => ({ color: theme.palette.text.secondary }),
      },
    },
  },
})

/**
 * MUI's own texts (the screen-reader names of an autocomplete's Open, Close and Clear buttons, of an
 * empty rating, of pagination) in each interface language. The date pickers take theirs from
 * `DatesLocalization`, which also gives them the adapter's locale; the charts from
 * `components/usage/ChartTexts`, which comes with them.
 */
const MUI_TEXTS = { fr: [materialFrench], en: [materialEnglish] }
const themes = new Map<string, Theme>()

/** The theme speaking `language` (French, the default language, for any other). */
export function themeFor(language: string): Theme {
  const texts = language === 'en' ? MUI_TEXTS.en : MUI_TEXTS.fr
  let localized = themes.get(language)
  if (!localized) {
    localized = createTheme(theme, ...texts)
    themes.set(language, localized)
  }
  return localized
}
