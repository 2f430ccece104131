import { createTheme } from '@mui/material/styles'

declare module '@mui/material/styles' {
  interface Palette {
    accent: Palette['primary']
  }
  interface PaletteOptions {
    accent?: PaletteOptions['primary']
  }
}

declare module '@mui/material/AppBar' {
  interface AppBarPropsColorOverrides {
    accent: true
  }
}

/** The specification's colours (part 1, §9). */
export const theme = createTheme({
  palette: {
    primary: { main: '#0074C8' },
    secondary: { main: '#666666' },
    accent: { main: '#007193', contrastText: '#FFFFFF' },
    error: { main: '#FC724C' },
    info: { main: '#00ACDF' },
    success: { main: '#009933' },
    warning: { main: '#FFC107' },
    background: { default: '#F4F6F8' },
  },
  shape: { borderRadius: 6 },
  typography: {
    fontFamily: '"Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    MuiAppBar: { defaultProps: { elevation: 1 } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTableCell: { styleOverrides: { head: { fontWeight: 600 } } },
  },
})
